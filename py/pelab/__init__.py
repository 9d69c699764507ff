"""pelab: the Python behind Positional Encoding Lab.

Pure numpy functions, the same under CPython and in the browser (Pyodide). Learners can call
them from the lesson's code cells.

    >>> import pelab
    >>> pe = pelab.sinusoidal(seq_len=50, d_model=128)   # (50, 128) float64
    >>> rgba = pelab.to_rgba(pe)                          # (50, 128, 4) uint8, cool-warm map

Modules, one concept each:
    positional_encoding  the sinusoidal encoding of Vaswani et al. (2017), its frequencies and wavelengths
    colormap             a perceptually uniform, colour-blind-safe diverging map for values in [-1, 1]
    adapter              the entry points the browser's worker calls (converts for JavaScript)
"""

from .colormap import COOL_WARM, to_rgba
from .positional_encoding import angular_frequencies, sinusoidal, wavelengths

__version__ = "0.1.0"
__all__ = ["COOL_WARM", "angular_frequencies", "sinusoidal", "to_rgba", "wavelengths"]
