"""pelab: the Python behind Positional Encoding Lab.

Pure numpy functions, the same under CPython and in the browser (Pyodide). Learners can call
them from the lesson's code cells.

    >>> import pelab
    >>> pe = pelab.sinusoidal(seq_len=50, d_model=128)   # (50, 128) float64
    >>> rgba = pelab.to_rgba(pe)                          # (50, 128, 4) uint8, cool-warm map
    >>> demo = pelab.order_blindness("dog bites man", [2, 1, 0])
    >>> demo.pooled_diff < 1e-12                          # attention alone cannot tell the order
    True

Modules, one concept each:
    positional_encoding  the sinusoidal encoding of Vaswani et al. (2017), its frequencies and
                         wavelengths, its terms for one position, its waves and clock hands,
                         and adding it to embeddings
    attention            single-head self-attention and why it is blind to word order:
                         tokens, toy embeddings and projections, permutations, the demonstration
    colormap             a perceptually uniform, colour-blind-safe diverging map for values in [-1, 1]
    adapter              the entry points the browser's worker calls (converts for JavaScript)
    notebook             the lesson's code cells: a Notebook runs them in one shared namespace,
                         and show(matrix) draws a matrix on the page as a heatmap
    mpl_backend          the matplotlib backend a Notebook selects: plt.show() sends figures to
                         the page (imported only once the learner imports matplotlib)
"""

from .attention import (
    MAX_TOKENS,
    OrderBlindness,
    embed,
    order_blindness,
    permutation_matrix,
    projections,
    self_attention,
    tokenize,
)
from .colormap import COOL_WARM, to_rgba
from .notebook import Notebook, show
from .positional_encoding import (
    add_positions,
    angular_frequencies,
    clock_angles,
    formula_terms,
    pair_waves,
    sinusoidal,
    wavelengths,
)

__version__ = "0.1.0"
__all__ = [
    "COOL_WARM",
    "MAX_TOKENS",
    "Notebook",
    "OrderBlindness",
    "add_positions",
    "angular_frequencies",
    "clock_angles",
    "embed",
    "formula_terms",
    "order_blindness",
    "pair_waves",
    "permutation_matrix",
    "projections",
    "self_attention",
    "show",
    "sinusoidal",
    "to_rgba",
    "tokenize",
    "wavelengths",
]
