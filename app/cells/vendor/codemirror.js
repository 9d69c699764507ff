// Entry point for the editor bundle: build.py bundles this file with esbuild into
// dist/app/vendor/codemirror.js, so the page gets one same-origin ES module and the exact
// versions pinned in package-lock.json. Only what app/editor.js uses is exported.
export { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from "@codemirror/view";
export { Annotation, EditorState, Prec } from "@codemirror/state";
export { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
export {
  bracketMatching,
  defaultHighlightStyle,
  HighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
export { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
export { tags } from "@lezer/highlight";
export { python } from "@codemirror/lang-python";
