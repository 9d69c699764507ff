"""The class report (report.html) for the browser tests: files in the two formats it reads, written
from answer records as an LMS holds them (docs/class-report.md: the project's CSV, and Moodle's
Interactions report as its text download writes it: tab-separated, its values escaped as HTML),
a file handed to the page's file input, and the tables it shows, read back."""

from __future__ import annotations

import csv
import html
import io

from pages import poll

PLAIN_COLUMNS = ["learner", "attempt", "interaction_id", "response", "result"]


def plain_csv(records: list[dict]) -> str:
    """The project's CSV of `records` ({learner, attempt, id, response, result}), CRLF lines."""
    out = io.StringIO()
    writer = csv.writer(out)  # quotes a field with a comma or a quote in it, as RFC 4180 says
    writer.writerow(PLAIN_COLUMNS)
    for r in records:
        writer.writerow([r["learner"], r["attempt"], r["id"], r["response"], r["result"]])
    return out.getvalue()


def moodle_text(records: list[dict]) -> str:
    """Moodle's Interactions report of `records`, downloaded as text: a row per learner's attempt
    with Name, an identity field, Attempt, Started on, Last accessed on, Score, the SCO's column,
    then Question n, Response n, Right answer n, Result n per interaction
    (mod/scorm/report/interactions/classes/report.php), tab-separated, values through s()."""
    attempts: dict[tuple[str, int], list[dict]] = {}
    for r in records:
        attempts.setdefault((r["learner"], r["attempt"]), []).append(r)
    width = max(len(rs) for rs in attempts.values())
    header = ["Name", "Email address", "Attempt", "Started on", "Last accessed on", "Score", "Quiz"]
    for n in range(width):
        header += [f"Question {n}", f"Response {n}", f"Right answer {n}", f"Result {n}"]
    lines = ["\t".join(header)]
    for (learner, attempt), rs in attempts.items():
        row = [learner, f"{learner.split()[0].lower()}@example.org", str(attempt),
               "6 December 2026, 9:00 AM", "6 December 2026, 9:20 AM", "50", "50"]
        for r in rs:
            row += [r["id"], r["response"], r.get("correct", ""), r["result"]]
        row += [""] * (len(header) - len(row))
        lines.append("\t".join(html.escape(field, quote=True) for field in row))
    return "\r\n".join(lines) + "\r\n"


def open_report(page, url: str, name: str, text: str | bytes) -> str:
    """Give report.html at `url` the file `name` holding `text`; the page's state once it has
    read it ("shown" or "problem")."""
    page.goto(url)
    body = text.encode("utf-8") if isinstance(text, str) else text
    page.set_input_files("#report-file", files=[{"name": name, "mimeType": "text/csv",
                                                  "buffer": body}])
    return poll(page, "() => document.documentElement.dataset.report",
                lambda state: state in ("shown", "problem"))


SHOWN = """() => ({
  items: [...document.querySelectorAll('.report-items tbody tr')].map((row) => ({
    item: row.dataset.item,
    cells: [...row.cells].map((cell) => cell.textContent),
  })),
  learners: [...document.querySelectorAll('.report-learners tbody tr')]
    .map((row) => [...row.cells].map((cell) => cell.textContent)),
  problem: document.querySelector('.report-problem').hidden
    ? null : document.querySelector('.report-problem').textContent,
  status: document.querySelector('.report-status').textContent,
})"""


def shown(page) -> dict:
    return page.evaluate(SHOWN)


def expected_report(records: list[dict]) -> tuple[dict, list]:
    """What the report should show for `records` whose learners made one attempt each, with one
    submission: per item [percent right, answered]; per learner [right, of, percent]."""
    per_item: dict[str, list[int]] = {}
    per_learner: dict[str, list[int]] = {}
    for r in records:
        item = r["id"].split(".")[0]
        right = r["result"] == "correct"
        per_item.setdefault(item, [0, 0])
        per_item[item][0] += right
        per_item[item][1] += 1
        per_learner.setdefault(r["learner"], [0, 0])
        per_learner[r["learner"]][0] += right
        per_learner[r["learner"]][1] += 1
    items = {
        item: [f"{js_round(100 * right / n)}%", str(n)] for item, (right, n) in per_item.items()
    }
    learners = [
        [learner, "1", str(right), str(n), f"{js_round(100 * right / n)}%"]
        for learner, (right, n) in per_learner.items()
    ]
    return items, learners


def js_round(value: float) -> int:
    """JavaScript's Math.round: halves up."""
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


def class_records(questions) -> list[dict]:
    """Four learners' answers to the graded items (test items without a demo to set), from the
    keys: Ada all right; "Lovelace, Bo" (a comma: quoted in the CSV) wrong on the first; Cy
    'the kid' (quotes in a name) wrong on the first two, with the same wrong option on the
    first; Di leaves the first unanswered."""
    graded = [q for q in questions if q.test and not q.setup and q.kind != "numeric"][:3]
    assert len(graded) == 3

    def response(question, right: bool) -> str:
        option = next(o for o in question.options if o.correct is right)
        return question.response_code(option)

    records = []
    for learner, wrong in [("Ada", set()), ("Lovelace, Bo", {0}), ('Cy "the kid"', {0, 1}),
                           ("Di", {"blank"})]:
        for n, q in enumerate(graded):
            given = "" if "blank" in wrong and n == 0 else response(q, n not in wrong)
            records.append({"learner": learner, "attempt": 1, "id": q.interaction_id,
                            "response": given,
                            "result": "correct" if given and n not in wrong else "wrong"})
    return records
