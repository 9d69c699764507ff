"""matplotlib's font cache, fontlist.json, as Pyodide's matplotlib writes it on import.

Pyodide's matplotlib rebuilds fontlist.json in its package folder on every page load (about
0.4 s); the worker writes this copy there before the first import instead.
"""

import os

import matplotlib.font_manager


def main() -> bytes:
    folder = os.path.dirname(matplotlib.font_manager.__file__)
    with open(os.path.join(folder, "fontlist.json"), "rb") as file:
        return file.read()
