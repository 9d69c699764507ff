// Unit tests of app/figures/notation.js under Node's own test runner: a figure's "S_j" is drawn
// as S with a subscript j, as the prose writes it; other underscores stay.
import assert from "node:assert/strict";
import { test } from "node:test";

import { notationParts } from "../../app/figures/notation.js";

const drawn = (text) => notationParts(text).map(({ text, sub }) => (sub ? `<${text}>` : text)).join("");

test("a letter's one-character index becomes a subscript", () => {
  assert.equal(drawn("mean |S_j|"), "mean |S<j>|");
  assert.equal(drawn("score (R_m q) · (R_n k)"), "score (R<m> q) · (R<n> k)");
  assert.equal(drawn("Σ 2 cos((m − n)·w_i), base 10000"), "Σ 2 cos((m − n)·w<i>), base 10000");
  assert.equal(drawn("(L′ − 1)·w′_i"), "(L′ − 1)·w′<i>");
  assert.equal(drawn("A = W_Q W_Kᵀ of the toy head"), "A = W<Q> W<K>ᵀ of the toy head");
});

test("names and longer indices keep their underscore", () => {
  for (const text of ["d_model 64", "max_len", "seq_len = 8", "x_12", "my_word_a", "offset |m − n|"]) {
    assert.equal(drawn(text), text);
    assert.ok(notationParts(text).every((part) => !part.sub));
  }
  assert.deepEqual(notationParts(""), []);
});
