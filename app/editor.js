/**
 * The code editor: CodeMirror 6 (bundled from npm by build.py) set up for Python, with line
 * numbers, bracket matching, undo, Shift+Enter / Ctrl+Enter / Cmd+Enter to run, and
 * Escape-then-Tab to leave the editor (CodeMirror's escape hatch from Tab indentation).
 */
import {
  Annotation,
  bracketMatching,
  closeBrackets,
  closeBracketsKeymap,
  defaultKeymap,
  drawSelection,
  EditorState,
  EditorView,
  HighlightStyle,
  highlightActiveLine,
  highlightActiveLineGutter,
  history,
  historyKeymap,
  indentOnInput,
  indentWithTab,
  keymap,
  lineNumbers,
  Prec,
  python,
  syntaxHighlighting,
  tags,
} from "./vendor/codemirror.js";

/** Marks a replacement of the whole text by the page, as opposed to an edit by the learner. */
const replacing = Annotation.define();

/** Syntax colours from CSS variables, so the editor follows the light and dark themes. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.operatorKeyword], color: "var(--code-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--code-number)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--code-function)" },
  { tag: [tags.className, tags.definition(tags.variableName)], color: "var(--code-definition)" },
]);

const theme = EditorView.theme({
  "&": { color: "var(--text)", backgroundColor: "var(--code-bg)", borderRadius: "6px", maxHeight: "28rem" },
  ".cm-scroller": { lineHeight: "1.5" },
  "&.cm-focused": { outline: "3px solid var(--focus)", outlineOffset: "2px" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", caretColor: "var(--text)" },
  ".cm-gutters": { backgroundColor: "var(--code-bg)", color: "var(--muted)", border: "none" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--code-active)" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "var(--code-match)", outline: "1px solid var(--muted)" },
  ".cm-selectionBackground, &.cm-focused .cm-selectionBackground": { backgroundColor: "var(--code-selection) !important" },
  // The page's reduced-motion rule cannot reach into the editor's shadow root: stop the
  // blinking cursor here (!important beats the blink rate CodeMirror sets inline).
  "@media (prefers-reduced-motion: reduce)": { ".cm-cursorLayer": { animation: "none !important" } },
});

/**
 * An editor in `host` holding `code`. `onRun()` is called on Shift/Ctrl/Cmd+Enter,
 * `onChange(code)` after every edit; `label` names the editor for screen readers.
 *
 * The editor lives in an open shadow root of `host`: there CodeMirror styles itself with a
 * constructable style sheet, which a strict Content-Security-Policy (style-src 'self')
 * allows, where in the document it would add a <style> element, which that policy blocks.
 * The page's CSS variables (colours, light and dark) still reach it.
 */
export function createEditor(host, { code, label, onRun, onChange }) {
  const run = () => {
    onRun();
    return true;
  };
  const root = host.attachShadow({ mode: "open" });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: code,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        python(),
        syntaxHighlighting(highlight),
        theme,
        Prec.highest(keymap.of([{ key: "Shift-Enter", run }, { key: "Mod-Enter", run }])),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
        // tabindex: the text is focusable anyway (contenteditable), but saying so lets checkers
        // such as axe see that a long line's horizontal scroller can be reached by keyboard.
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !update.transactions.some((t) => t.annotation(replacing))) {
            onChange(update.state.doc.toString());
          }
        }),
      ],
    }),
  });

  // Replacing the text of a hidden editor (in a closed "Show the Python") still costs a layout
  // pass and a selection read each time, and every demo's first render replaces its cell's text:
  // so a hidden editor only keeps the text, and shows it when it is shown or focused.
  let pending = null;
  const replace = (text) => {
    if (text !== view.state.doc.toString()) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: replacing.of(true) });
    }
  };
  const flush = () => {
    if (pending === null) return;
    const text = pending;
    pending = null;
    replace(text);
  };
  // fires when the editor gets a box (its <details> opens), wherever on the page it is
  const shown = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && flush(), {
    rootMargin: "100000px",
  });
  shown.observe(host);
  host.addEventListener("focusin", flush);

  return {
    view,
    get code() {
      return pending ?? view.state.doc.toString();
    },
    /** Replace the whole text (not an edit by the learner: onChange is not called). */
    set code(text) {
      if (host.checkVisibility?.() === false) pending = text;
      else {
        pending = null;
        replace(text);
      }
    },
    focus: () => view.focus(),
  };
}
