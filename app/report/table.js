/**
 * A delimited text file as rows of fields: the project's CSV (commas) or Moodle's text export of
 * a report (tabs; Moodle's csv_export_writer("tab"), see records.js), as RFC 4180 writes them:
 * a field in double quotes may hold the delimiter, line breaks and quotes (doubled); lines end
 * in CRLF, LF or CR; a byte order mark at the start is dropped. A pure function of the text
 * (tests/js/report.test.mjs runs it under Node): what it cannot read is a ReportProblem naming
 * the row and the column, counted as a spreadsheet counts them (the header is row 1).
 */
import { t } from "../i18n.js";

/** What is wrong with a file, and where: `row` and `column` from 1, 0 when it is the whole file. */
export class ReportProblem extends Error {
  /**
   * @param {string} message
   * @param {number} [row]
   * @param {number | string} [column] its number, or its header's name
   */
  constructor(message, row = 0, column = 0) {
    super(message);
    this.name = "ReportProblem";
    this.row = row;
    this.column = column;
  }
}

/**
 * "Row 3, column 2: " (or "Row 3: ", or nothing) before a message.
 * @param {number} row
 * @param {number | string} column
 */
export function where(row, column) {
  if (!row) return "";
  // Translators: the start of a message about a place in a spreadsheet file, such as “Row 3, column “Result 0”: …”; {column} is a column's number or its header.
  if (column) return t("Row {row}, column {column}: ", { row, column: typeof column === "number" ? column : `“${column}”` });
  // Translators: the start of a message about a row of a spreadsheet file, such as “Row 3: …”.
  return t("Row {row}: ", { row });
}

/**
 * A ReportProblem whose message starts with its place.
 * @param {string} message
 * @param {number} [row]
 * @param {number | string} [column]
 */
export function problemAt(message, row = 0, column = 0) {
  return new ReportProblem(where(row, column) + message, row, column);
}

/** The delimiter of a file whose first line is `line`: tab if it has one, else comma, else semicolon. */
function delimiterOf(line) {
  const outside = line.replace(/"[^"]*"/g, "");
  if (outside.includes("\t")) return "\t";
  if (!outside.includes(",") && outside.includes(";")) return ";";
  return ",";
}

/**
 * The rows of `text`, each a list of its fields, blank lines left out; and the delimiter read.
 * @param {string} text
 * @returns {{rows: string[][], delimiter: string}}
 */
export function parseTable(text) {
  const source = String(text ?? "").replace(/^\uFEFF/, "");
  if (source.trim() === "") throw problemAt(t("The file is empty."));
  if (source.includes("\u0000")) {
    throw problemAt(t("This is not a text file: export the report as text (CSV or tab-separated), not as a spreadsheet (Excel or ODS)."));
  }
  const delimiter = delimiterOf(source.split(/\r\n|\n|\r/, 1)[0]);
  /** @type {string[][]} */
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false; // inside a quoted field
  let closed = false; // just after a quoted field's closing quote
  let at = 0;
  const endField = () => {
    row.push(field);
    field = "";
    closed = false;
  };
  const endRow = () => {
    endField();
    if (!(row.length === 1 && row[0].trim() === "")) rows.push(row);
    row = [];
  };
  while (at < source.length) {
    const char = source[at];
    if (quoted) {
      if (char === '"' && source[at + 1] === '"') {
        field += '"';
        at += 2;
        continue;
      }
      if (char === '"') {
        quoted = false;
        closed = true;
      } else {
        field += char;
      }
      at += 1;
      continue;
    }
    if (char === delimiter) {
      endField();
    } else if (char === "\r" || char === "\n") {
      endRow();
      if (char === "\r" && source[at + 1] === "\n") at += 1;
    } else if (closed) {
      throw problemAt(
        t("a quoted field ends, but “{text}” follows its closing quote: inside quotes, write a quote as two quotes (\"\").", { text: char }),
        rows.length + 1,
        row.length + 1,
      );
    } else if (char === '"' && field === "") {
      quoted = true;
    } else {
      field += char;
    }
    at += 1;
  }
  if (quoted) {
    throw problemAt(t("a quoted field opens here and is never closed: its closing quote is missing."), rows.length + 1, row.length + 1);
  }
  if (field !== "" || row.length || closed) endRow();
  return { rows, delimiter };
}
