"""
# Limits more than one demo's entry points share

Each demo's module keeps its own limits; these are the ones several share.
"""

# Most multiply-adds one entry point may ask for: about 0.1 s in Pyodide, which has no BLAS
# (2**26: seq_len 1024 with d_model 64 for a Gram matrix of seq_len x seq_len).
MAX_WORK = 2**26
# Why a request over MAX_WORK is refused, as its error message says.
RESPONSIVE = " to keep the page responsive"
# Largest n for the n x n matrices of "similarity" and "learned".
MAX_MATRIX_LEN = 512
# Widest d_model for "similarity", "learned" and "extrapolation" (MAX_WORK limits it further).
MAX_MATRIX_WIDTH = 1024
# Largest seed of an entry point that draws random vectors or trains a model.
MAX_SEED = 2**32 - 1
