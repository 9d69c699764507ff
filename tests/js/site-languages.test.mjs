// The site's languages (app/site-languages.js): a translated page in its language's folder, the
// English page it is a copy of, the embed's address from either; where a page keeps its cells'
// edits (app/cells/storage.js), the same in every language; and which quiz keys a page reads
// (app/quiz/keys.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { embedAddress, englishPath, isTranslatedPage, siteLanguage, TRANSLATIONS } from "../../app/site-languages.js";
import { storageKeys } from "../../app/cells/storage.js";
import { keysFile } from "../../app/quiz/keys.js";

test("a translated page's path is its English page's, one folder up", () => {
  assert.equal(englishPath("/zh/why-order.html", "zh"), "/why-order.html");
  assert.equal(englishPath("/es/index.html", "es"), "/index.html");
  assert.equal(englishPath("/zh/", "zh"), "/"); // a folder
  assert.equal(englishPath("/course/es/geometry.html", "es"), "/course/geometry.html"); // a site under a sub-path
  assert.equal(englishPath("/course/es/", "es"), "/course/");
});

test("an English page's path, or one outside its language's folder, stays as it is", () => {
  assert.equal(englishPath("/why-order.html", "en"), "/why-order.html");
  assert.equal(englishPath("/zh/why-order.html", "en"), "/zh/why-order.html"); // an English page in a folder named zh
  assert.equal(englishPath("/zh/why-order.html", "es"), "/zh/why-order.html");
  assert.equal(englishPath("/zh/more/page.html", "zh"), "/zh/more/page.html"); // not the page's own folder
  assert.equal(englishPath("/why-order.html", "fr"), "/why-order.html"); // not one of the site's languages
  assert.ok(isTranslatedPage("/zh/why-order.html", "zh"));
  assert.ok(!isTranslatedPage("/why-order.html", "en"));
  assert.ok(!isTranslatedPage("/why-order.html", "zh"));
  assert.deepEqual([...TRANSLATIONS].sort(), ["es", "zh"]);
});

test("the embed's address: beside an English page; the root's, in the page's language, from a translated one", () => {
  assert.equal(
    embedAddress("heatmap", "d_model=64&base=100", "https://lab.example/why-order.html", "en"),
    "https://lab.example/embed.html?demo=heatmap#d_model=64&base=100",
  );
  assert.equal(
    embedAddress("heatmap", "d_model=64&base=100", "https://lab.example/zh/why-order.html", "zh"),
    "https://lab.example/embed.html?demo=heatmap&lang=zh#d_model=64&base=100",
  );
  assert.equal(
    embedAddress("rope", "", "https://lab.example/course/es/inside-attention.html#rope", "es"),
    "https://lab.example/course/embed.html?demo=rope&lang=es",
  );
  // a translated embed's own "Copy link" points at the root's too, and keeps the state
  assert.equal(
    embedAddress("quiz", "code=print(1)", "https://lab.example/es/embed.html?demo=quiz&lang=es", "es"),
    "https://lab.example/embed.html?demo=quiz&lang=es#code=print(1)",
  );
});

/** A page as storageKeys reads it. */
function page(href, { lang = "en", chapter = true } = {}) {
  return {
    body: { classList: { contains: (name) => chapter && name === "chapter-page" } },
    baseURI: href,
    location: { pathname: new URL(href).pathname },
    documentElement: { lang },
  };
}

test("cells' edits are kept under the English page's address, whatever the page's language", () => {
  const english = storageKeys(page("https://lab.example/why-order.html"));
  assert.deepEqual(english, ["/index.html", "/"]);
  assert.deepEqual(storageKeys(page("https://lab.example/zh/why-order.html", { lang: "zh" })), english);
  assert.deepEqual(storageKeys(page("https://lab.example/zh/why-order.html", { lang: "zh-Hans" })), english);
  assert.deepEqual(storageKeys(page("https://lab.example/es/review.html", { lang: "es" })), english);
  assert.deepEqual(storageKeys(page("https://lab.example/course/es/review.html", { lang: "es" })), ["/course/index.html", "/course/"]);
  // an embed keeps them under its own address: the English embed's
  const embed = storageKeys(page("https://lab.example/embed.html?demo=cell", { chapter: false }));
  assert.deepEqual(embed, ["/embed.html"]);
  assert.deepEqual(storageKeys(page("https://lab.example/zh/embed.html?demo=cell&lang=zh", { lang: "zh", chapter: false })), embed);
});

test("a page reads the quiz's keys of its language, the English ones for any other", () => {
  assert.equal(keysFile("zh"), "quiz-keys.zh.json");
  assert.equal(keysFile("es"), "quiz-keys.es.json");
  assert.equal(keysFile("en"), "quiz-keys.json");
  assert.equal(keysFile("fr"), "quiz-keys.json");
  assert.equal(keysFile(""), "quiz-keys.json");
});

test("a Chinese page declares its script (zh-Hans) and is still the zh folder's", () => {
  assert.equal(siteLanguage("zh-Hans"), "zh");
  assert.equal(siteLanguage("zh"), "zh");
  assert.equal(siteLanguage("es"), "es");
  assert.equal(siteLanguage(""), "en");
  assert.equal(englishPath("/lab/zh/why-order.html", "zh-Hans"), "/lab/why-order.html");
  assert.ok(isTranslatedPage("/zh/review.html", "zh-Hans"));
  assert.equal(
    embedAddress("formula", "", "https://lab.example/zh/why-order.html", "zh-Hans"),
    "https://lab.example/embed.html?demo=formula&lang=zh",
  );
});
