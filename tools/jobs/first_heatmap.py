"""The heatmap demo's first picture as PNG bytes, drawn by pelab itself at build time, so the page
shows a real figure before Python starts in the browser, or without it. Its settings are the
heatmap sliders' first values in index.html (tools/heatmap_settings.py reads them)."""

import pelab


def main(seq_len: int, d_model: int, base: float) -> bytes:
    return pelab.png_bytes(pelab.to_rgba(pelab.sinusoidal(seq_len, d_model, base)))
