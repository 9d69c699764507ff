r"""
# Words to vectors: the toy tokens and embeddings

The lesson's sentences become vectors the simplest fixed way: `tokenize`
splits a sentence into words (at most `MAX_TOKENS`, punctuation stripped
from their ends; Chinese and Japanese, written without spaces, one
character per token), and `embed` gives each word a fixed random vector of
`d_model` coordinates, each drawn with standard deviation `EMBEDDING_STD`
from a generator seeded by the word itself.  Nothing is trained and nothing
is random from run to run: the same word gets the same vector in every
demo, under CPython and in the browser.
"""

import hashlib
import math
import re
import reprlib
import unicodedata

import numpy as np

from .checks import MAX_D_MODEL, MAX_ELEMENTS, MAX_SEQ_LEN, check_product, check_size

# Most tokens a sentence keeps: enough for a sentence, few enough to draw.
MAX_TOKENS = 24
# Standard deviation of each embedding coordinate (see `embed`).
EMBEDDING_STD = math.sqrt(0.5)

# Characters of scripts written without spaces between words: Han ideographs
# (CJK Unified Ideographs and their extensions, compatibility ideographs),
# hiragana and katakana.  Each one is a token of its own.
_CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uff66-\uff9f\U00020000-\U0003134f"
)
# One candidate word: a CJK character, or a run of other non-whitespace.
_WORD = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+")


def tokenize(sentence, max_tokens=MAX_TOKENS, *, name="sentence"):
    """
    Split a sentence into word tokens.

    Words are the runs between whitespace (any Unicode whitespace), except
    that Chinese and Japanese, which put no spaces between words, give one
    token per character (Han ideographs, hiragana, katakana): a real
    tokenizer would find their words with a dictionary or a learned
    vocabulary, which this toy has not.  So `狗咬人` is three tokens, and
    `我爱RoPE` is `我`, `爱`, `RoPE`.  Each word
    loses its leading and trailing punctuation (Unicode categories P*:
    `.,;:!?"'()[]{}` and the like, curly quotes too), so `"Dog,` becomes
    `Dog`, while punctuation inside a word stays: `don't`, `well-known`.
    A word that was only punctuation (`--`, `...`) is dropped.  Symbols are
    not punctuation, so emoji, `+`, `<`, `>` and `=` are kept, and every
    token is the learner's own text, spelling and case unchanged: the
    caller must show it as text, never as HTML.

    Only the first `max_tokens` words are kept.  The input is scanned
    lazily, so a very long text costs no more than its first
    `max_tokens + 1` words.

    Args:
        sentence: the text, a `str`.
        max_tokens: most tokens kept, an integer from 1 to `MAX_SEQ_LEN`.
        name: the parameter name used in error messages (keyword only).

    Returns:
        `(tokens, truncated)`: a list of 1 to `max_tokens` non-empty
        strings, and True if words after the first `max_tokens` were dropped.

    Raises:
        ValueError: if `sentence` is not a `str`, or has no word.

    Example:
        >>> tokenize("Dog bites man!")
        (['Dog', 'bites', 'man'], False)
        >>> tokenize("'Tis the dog's bone -- isn't it?", max_tokens=4)
        (['Tis', 'the', "dog's", 'bone'], True)
        >>> tokenize("狗咬人。")
        (['狗', '咬', '人'], False)
    """
    _check_str(name, sentence)
    max_tokens = check_size("max_tokens", max_tokens, MAX_SEQ_LEN)
    tokens = []
    for match in _WORD.finditer(sentence):
        word = _strip_punctuation(match.group())
        if not word:
            continue
        if len(tokens) == max_tokens:
            # A (max_tokens + 1)-th word exists: stop reading here.
            return tokens, True
        tokens.append(word)
    if not tokens:
        raise ValueError(f"{name} must contain at least one word")
    return tokens, False


def _strip_punctuation(word):
    """`word` without its leading and trailing Unicode punctuation (categories P*)."""
    start, end = 0, len(word)
    while start < end and unicodedata.category(word[start]).startswith("P"):
        start += 1
    while end > start and unicodedata.category(word[end - 1]).startswith("P"):
        end -= 1
    return word[start:end]


def embed(tokens, d_model=8):
    r"""
    A fixed random embedding per word: a stand-in for a trained embedding
    table, which is all attention needs to show its order-blindness.

    $$
    e(w) = \sigma z, \qquad z \sim \mathcal{N}(0, I_{d_{model}}), \qquad
    \sigma = \sqrt{1/2}
    $$

    where $z$ comes from numpy's `default_rng` seeded with the SHA-256 of
    the word, case-folded (`str.casefold`) and encoded as UTF-8.  So:

    * the same word always gets the same vector, wherever it appears, in
      every run, under CPython and in Pyodide alike (SHA-256 and numpy's
      PCG64 generator are the same everywhere);
    * case does not matter: "The" and "the" share a vector;
    * different words get independent vectors, nearly orthogonal.

    Why $\sigma^2 = 1/2$: a coordinate of $PE_{pos}$ is a sine or cosine,
    whose mean square over positions is 1/2, so a word vector and a position
    vector have the same expected squared length, $d_{model}/2$, and
    neither drowns the other when they are added.

    The vector for a wider `d_model` starts with the vector for a narrower
    one (the generator draws the coordinates in order).

    Args:
        tokens: a list (or tuple) of `str`, at least one.
        d_model: embedding width, an integer from 1 to `MAX_D_MODEL`;
            `len(tokens) * d_model` may not exceed `MAX_ELEMENTS`.

    Returns:
        float64 array of shape `(len(tokens), d_model)`; row `k` is the
        embedding of `tokens[k]`.

    Example:
        >>> x = embed(["The", "cat", "the"])
        >>> x.shape
        (3, 8)
        >>> bool((x[0] == x[2]).all()), bool((x[0] == x[1]).all())
        (True, False)
    """
    tokens = _check_tokens(tokens)
    d_model = check_size("d_model", d_model, MAX_D_MODEL)
    check_product("len(tokens) * d_model", (len(tokens), d_model), MAX_ELEMENTS, total=False)
    x = np.empty((len(tokens), d_model), dtype=np.float64)
    vectors = {}  # one draw per distinct case-folded word
    for row, token in enumerate(tokens):
        key = token.casefold()
        if key not in vectors:
            vectors[key] = _word_vector(key, d_model)
        x[row] = vectors[key]
    return x


def _word_vector(key, d_model):
    """sigma * z with z ~ N(0, I), from a generator seeded with SHA-256(key)."""
    # "surrogatepass" only matters for a lone UTF-16 surrogate, which a
    # JavaScript string may hold and strict UTF-8 cannot encode.
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
    # The whole 256-bit digest, as one non-negative integer, seeds PCG64.
    rng = np.random.default_rng(int.from_bytes(digest, "big"))
    return EMBEDDING_STD * rng.standard_normal(d_model)


# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_str(name, value):
    """
    Check that `value` is a `str`.

    Raises:
        ValueError: "<name> must be a str, got <type name>".
    """
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a str, got {type(value).__name__}")
    return value


def _check_tokens(tokens):
    """
    Check that `tokens` is a non-empty list or tuple of `str` (a bare `str` is
    refused: it is not a list of words).

    Returns:
        the tokens as a new list.

    Raises:
        ValueError: "tokens must be a non-empty list of str, got <tokens>".
    """
    if isinstance(tokens, (list, tuple)) and tokens and all(isinstance(t, str) for t in tokens):
        return list(tokens)
    raise ValueError(
        f"tokens must be a non-empty list of str, got {reprlib.repr(tokens)}"
    )
