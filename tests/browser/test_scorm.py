"""The SCORM 1.2 packages in a real SCORM runtime: scorm-again (npm) plays the LMS in a test page
(tests/browser/lms/host.html) that launches a package in an iframe, under a deep sub-path like
Moodle's, on an origin of its own. A learner takes the graded test and submits it; the test reads
what the LMS holds, per question too. Then: a return visit, attempts, no LMS, a broken one, one
that says no, answers too long to save, and the thin package's relay, which must believe only the
lesson it frames. The packages are made from a copy of the site whose lesson has end-test items
(tests/browser/quiz_lesson.py), whatever the lesson's own questions are. Every package opens at
its own launch.html, and must work whether the LMS appends the manifest's `parameters` to it or
drops them; a chapter package is graded by its end test, and a lesson without a test reports
reaching its end."""

from __future__ import annotations

import json
import math
import re
import shutil
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest

from class_report import expected_report, moodle_text, open_report, plain_csv, shown
from pages import PAGE_OF, hold_python, poll, wait_for_state
from quiz_lesson import build_site, question_id, read_keys
from site_server import DIST, ROOT, served
from tools.course import plain
from tools.custom_lesson import assemble_custom
from tools.i18n import TRANSLATED, language_tag
from tools.scorm import write_custom_package, write_packages, write_thin_package

HERE = Path(__file__).parent / "lms"
SCORM_AGAIN = ROOT / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
CONTENT = "mod/scorm/content/7"  # where the LMS serves a package's files: any folder must do
NS = {
    "cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
    "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
}
QUIZ = "#quiz .quiz-question:not([hidden])"
QUIZ_PACKAGE = "positional-encoding-lab-quiz"
LESSON_FRAME = ".package-frame"  # launch.html's frame, where the package's pages are shown
# The test's questions answered by picking an option (its numeric ones are typed).
CHOICES = ".quiz-question:not([hidden]):not([data-kind=numeric])"


def percent(correct: int, total: int) -> int:
    """The score the quiz sends: JavaScript's Math.round of the percentage (halves round up, where
    Python's round() would go to even: 2 of 16 is 12.5, sent as 13). Exact: the division is the
    same IEEE double in both languages."""
    return math.floor(100 * correct / total + 0.5)


def manifest_item(folder: Path):
    root = ET.parse(folder / "imsmanifest.xml").getroot()
    item = root.find(".//cp:organization/cp:item", NS)
    resource = root.find(f".//cp:resource[@identifier='{item.get('identifierref')}']", NS)
    return item, resource


def launch_of(folder: Path, parameters: bool = True) -> tuple[str, str]:
    """The SCO's launch URL (resource href + item parameters, or the href alone, as an LMS that
    drops them builds it) and mastery score, read from the manifest as an LMS reads them."""
    item, resource = manifest_item(folder)
    return (
        resource.get("href") + ((item.get("parameters") or "") if parameters else ""),
        item.findtext("adlcp:masteryscore", namespaces=NS),
    )


@pytest.fixture(scope="module")
def quiz_packages(tmp_path_factory):
    """The site with end-test items and its packages: (its folder, its URL, the keys)."""
    site, keys = build_site(tmp_path_factory.mktemp("quiz-site"))
    write_packages(site, site / "scorm")
    with served(site) as url:
        yield site, url, keys


@pytest.fixture(scope="module")
def lms(tmp_path_factory, quiz_packages):
    """A test LMS on its own origin: the host page, scorm-again, and each package unzipped."""
    root = tmp_path_factory.mktemp("lms")
    for name in ("host.html", "host.js"):
        shutil.copy(HERE / name, root / name)
    shutil.copy(SCORM_AGAIN, root / "scorm12.js")
    packages = sorted((quiz_packages[0] / "scorm").glob("*.zip"))
    assert QUIZ_PACKAGE in [p.stem for p in packages]
    # Each package is unzipped when first launched (open_package): seven of 50 MB each unzipped,
    # and most tests launch the quiz's.
    (root / CONTENT).mkdir(parents=True)
    (root / "packages").symlink_to(quiz_packages[0] / "scorm")
    with served(root, isolated=False) as url:  # an LMS sends no COOP/COEP headers
        yield url, root, quiz_packages[2]



def open_lms(page, lms_url: str, **options) -> None:
    page.goto("about:blank")  # a new document each time, not just a new fragment
    page.goto(f"{lms_url}host.html#{quote(json.dumps(options))}")


def open_package(page, lms, package: str, parameters: bool = True, **options):
    """Open the test LMS launching `package` as an LMS does: the manifest's launch URL (with or
    without its parameters), its mastery score and its launch data handed to the runtime."""
    url, root, _ = lms
    folder = root / CONTENT / package
    if not folder.exists():
        with zipfile.ZipFile(lms_package(lms, package)) as archive:
            archive.extractall(folder)
    href, mastery = launch_of(folder, parameters)
    item, _ = manifest_item(folder)
    data = options.pop("data", {})
    data.setdefault("student_data", {}).setdefault("mastery_score", mastery)
    data.setdefault("launch_data", item.findtext("adlcp:datafromlms", namespaces=NS) or "")
    open_lms(page, url, launch=f"{CONTENT}/{package}/{href}", data=data, **options)
    return page.frame_locator("#sco").frame_locator(LESSON_FRAME)


def lms_package(lms, package: str) -> Path:
    """The zip of `package`, among the test site's (the LMS's packages/ is its scorm/)."""
    _, root, _ = lms
    return root / "packages" / f"{package}.zip"


def launch(page, lms, package: str, parameters: bool = True, **options):
    """Open the test LMS launching `package`, and return the SCO's frame once its quiz is wired
    (the whole course's package launches at its entrance: the learner walks to the quiz)."""
    frame = open_package(page, lms, package, parameters, **options)
    walk_to_the_quiz(frame)
    frame.locator(".quiz-score").wait_for()
    return frame


def walk_to_the_quiz(frame) -> None:
    """From the course's entrance, as a learner would: the quiz's chapter, by its link."""
    frame.locator(".quiz-score, .chapters").first.wait_for()
    if frame.locator(".chapters").count():
        frame.locator(f".chapter a[href='{PAGE_OF['quiz']}']").click()


def launched(page):
    """The LMS's frame: the package's launch.html, or the thin package's relay."""
    return page.locator("#sco").element_handle().content_frame()


def sco(page):
    """The lesson page the launched package shows, in its launch page's frame (for evaluate;
    frame_locator is for clicks)."""
    return page.frame_locator("#sco").locator(LESSON_FRAME).element_handle().content_frame()


def record(page) -> dict:
    return page.evaluate("() => lmsRecord()")


def answer(frame, keys: dict, index: int, right: bool) -> None:
    """Answer question `index` of the quiz, right or wrong (by the keys)."""
    question = frame.locator(QUIZ).nth(index)
    name = question_id(question)
    key = keys[name]
    if key["kind"] == "numeric":
        box = question.get_by_role("textbox")
        box.fill(str(key["answer"] if right else key["answer"] + 10 * key["tolerance"] + 1))
        box.dispatch_event("change")
    elif right:
        question.locator(f"input[value='{key['correct']}']").check()
    else:
        question.locator(f"input:not([value='{key['correct']}'])").first.check()


def submit(page, frame) -> str:
    """Submit the graded test (again, if it asks because questions are unanswered); the score
    line once it is marked."""
    frame.get_by_role("button", name="Submit").click()
    if "not answered" in frame.locator("#quiz .quiz-score").inner_text():
        frame.get_by_role("button", name="Submit").click()
    return poll(
        sco(page),
        "() => document.querySelector('#quiz .quiz-score').textContent",
        lambda text: text.startswith("Submitted"),
    )


def lms_note(page) -> str:
    frame = sco(page)
    poll(frame, "() => document.querySelector('.lms-note')?.textContent ?? ''", bool)
    return frame.evaluate("() => document.querySelector('.lms-note').textContent")


def interactions(held: dict) -> list[dict]:
    """The LMS's cmi.interactions, in order."""
    return [held["interactions"][str(i)] for i in range(len(held["interactions"]))]


def test_a_graded_test_reports_its_submission_and_each_answer_and_resumes(page, lms):
    _, _, keys = lms
    frame = launch(page, lms, QUIZ_PACKAGE)
    poll(
        sco(page),
        "() => document.querySelector('form.quiz').dataset.lms",
        lambda s: s == "connected",
    )
    total = frame.locator(QUIZ).count()
    assert total >= 5
    assert frame.locator(".quiz-submit").is_visible()
    assert record(page)["core"]["lesson_status"] == "incomplete"  # started, nothing answered yet
    for index, right in enumerate([True, False, True, False]):
        answer(frame, keys, index, right)
    held = record(page)
    # nothing is marked before Submit: no score, no interaction, only the answers kept
    assert held["core"]["lesson_status"] == "incomplete" and held["core"]["score"]["raw"] == ""
    assert held["core"]["exit"] == "suspend"  # asks the LMS to resume this attempt
    assert held["interactions"] == {}
    assert re.fullmatch(r"\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?", held["core"]["session_time"])
    saved = held["suspend_data"]
    given = sco(page).evaluate(
        """() => [...document.querySelectorAll('.quiz-question:not([hidden]) input')]
             .filter((i) => (i.type === 'text' ? i.value : i.checked))
             .map((i) => [i.name, i.value])"""
    )
    # the seed that drew this attempt's versions, then the answers
    seed = sco(page).evaluate("() => document.querySelector('#quiz form').dataset.seed")
    assert saved == f"v=1&r={seed}&" + "&".join(f"{name}={value}" for name, value in given)
    assert len(given) == 4
    assert frame.locator(".quiz-feedback:visible").count() == 0

    # the learner leaves
    page.evaluate("() => { document.querySelector('#sco').src = 'about:blank'; }")
    poll(page, "() => API.isTerminated()", bool)
    assert page.evaluate("() => lmsCalls.at(-1)") == "LMSFinish"

    # The return visit: the LMS hands back what it kept, still unmarked.
    frame = launch(
        page, lms, QUIZ_PACKAGE, data={"core": {"entry": "resume"}, "suspend_data": saved}
    )
    poll(
        sco(page),
        "() => document.querySelector('#quiz .quiz-score').textContent",
        lambda text: text.startswith(f"4 of {total} answered."),
    )
    assert frame.locator(".quiz-feedback:visible").count() == 0
    # the same answers, by value: the options were shuffled again for this visit
    again = sco(page).evaluate(
        """() => [...document.querySelectorAll('.quiz-question:not([hidden]) input')]
             .filter((i) => (i.type === 'text' ? i.value : i.checked))
             .map((i) => [i.name, i.value])"""
    )
    assert again == given
    for index in range(4, total):
        answer(frame, keys, index, True)
    score = submit(page, frame)
    raw = percent(total - 2, total)
    assert score.startswith(f"Submitted: {total - 2} of {total} right ({raw}%).")
    held = record(page)
    assert held["core"]["score"]["raw"] == str(raw)
    assert held["core"]["lesson_status"] == ("passed" if raw >= 80 else "failed")
    assert held["suspend_data"].startswith("v=1&a=1&s=1&")
    # one interaction per question, in the page's order, in SCORM 1.2's vocabulary
    records = interactions(held)
    names = sco(page).evaluate(
        "() => [...document.querySelectorAll('#quiz .quiz-question:not([hidden])')]"
        ".map((q) => [q.dataset.id || q.querySelector('input').name, q.dataset.kind,"
        " q.dataset.result])"
    )
    assert [r["id"] for r in records] == [name for name, _, _ in names]
    kinds = {"choice": "choice", "truefalse": "true-false", "numeric": "numeric"}
    for held_record, (name, kind, result) in zip(records, names):
        assert held_record["type"] == kinds[kind]
        assert held_record["result"] == ("correct" if result == "right" else "wrong")
        # the objective is the item's, whichever version was shown
        assert held_record["objectives"]["0"]["id"] == (
            "rope-relative-offset" if name == "quiz-rope-offset" else name.split(".")[0]
        )
        assert held_record["correct_responses"]["0"]["pattern"] != ""
        if kind == "truefalse":
            assert held_record["student_response"] in ("t", "f")
        if name == "quiz-rope-offset":  # quiz_lesson.py's numeric item
            assert held_record["correct_responses"]["0"]["pattern"] == "-4"
    assert [r["result"] for r in records[:4]] == ["correct", "wrong", "correct", "wrong"]
    # the host page (the LMS's, here) got the same per question in the pelab:quiz message
    posted = page.evaluate(
        "() => lmsMessages.filter((m) => m?.type === 'pelab:quiz' && m.justSubmitted).at(-1)"
    )
    assert posted["submitted"] and posted["mode"] == "graded" and posted["test"] == "lesson"
    assert [
        (q["id"], q["type"], q["response"], q["result"], q["objective"])
        for q in posted["questions"]
    ] == [
        (r["id"], r["type"], r["student_response"], r["result"], r["objectives"]["0"]["id"])
        for r in records
    ]


def lms_records(page, learner: str) -> list[dict]:
    """The interactions the LMS holds for this launch, as the class report's rows for `learner`
    (tests/browser/class_report.py writes them out in either format)."""
    return [
        {
            "learner": learner,
            "attempt": 1,
            "id": held["id"],
            "response": held["student_response"],
            "result": held["result"],
            "correct": held["correct_responses"]["0"]["pattern"],
        }
        for held in interactions(record(page))
    ]


@pytest.mark.parametrize("kind", ["plain", "moodle"])
def test_the_class_report_reads_what_the_lms_recorded(page, lms, quiz_packages, kind):
    """Two learners take the graded test in the LMS; the interactions it holds, written out as the
    project's CSV or as Moodle's Interactions report (its text download), give report.html the
    numbers worked out here: per item, the share right and the wrong answer with its
    misconception; per learner, the score the LMS holds."""
    _, _, keys = lms
    records, scores = [], {}
    for learner, right in [("Ada Lovelace", lambda i: True), ("Bo, the second", lambda i: i % 3)]:
        frame = launch(page, lms, QUIZ_PACKAGE)
        total = frame.locator(QUIZ).count()
        for index in range(total):
            answer(frame, keys, index, bool(right(index)))
        submit(page, frame)
        records += lms_records(page, learner)
        scores[learner] = record(page)["core"]["score"]["raw"]
    text = plain_csv(records) if kind == "plain" else moodle_text(records)
    assert open_report(page, f"{quiz_packages[1]}report.html", "class.txt", text) == "shown"
    report = shown(page)
    items, learners = expected_report(records)
    assert {row["item"]: row["cells"][1:3] for row in report["items"]} == items
    assert report["learners"] == learners
    assert [row[-1] for row in learners] == [f"{scores[name]}%" for name in scores]
    for row in report["items"]:  # Bo's wrong answer, where he gave one, and what it reveals
        given = [
            r for r in records if r["id"].split(".")[0] == row["item"] and r["result"] == "wrong"
        ]
        wrong = given[0] if given else None
        if wrong is None:
            assert row["cells"][3] == "none"
            continue
        key = keys[wrong["id"]]
        why = key["why"]["*"] if key["kind"] == "numeric" else (
            next(iter(key["why"].values())) if key["kind"] == "truefalse"
            else key["why"][wrong["response"]]
        )
        version = wrong["id"].split(".", 1)[1] if "." in wrong["id"] else "a"
        assert row["cells"][3] == f"{wrong['response']} (version {version}): 1 learner(s)"
        assert row["cells"][4] == plain(why)


def test_the_lms_score_is_the_latest_submission_s_within_the_attempts_allowed(page, lms):
    _, _, keys = lms
    frame = launch(page, lms, QUIZ_PACKAGE, data={"launch_data": "attempts=2"})
    assert "allows 2 attempts" in lms_note(page)
    total = frame.locator(QUIZ).count()
    assert frame.locator(".quiz-score").inner_text().endswith("This is attempt 1 of 2.")
    for index in range(total):
        answer(frame, keys, index, True)
    assert "2 left of 2" not in submit(page, frame)
    assert record(page)["core"]["score"]["raw"] == "100"
    assert "begins a new attempt: 1 left of 2." in frame.locator(".quiz-score").inner_text()
    frame.get_by_role("button", name="Start again").click()
    assert frame.locator(".quiz-score").inner_text().endswith("This is attempt 2 of 2.")
    for index in range(total):
        answer(frame, keys, index, index != 0)  # one wrong
    assert "That was your last attempt of 2." in submit(page, frame)
    held = record(page)
    assert held["core"]["score"]["raw"] == str(percent(total - 1, total))  # the latest, lower
    assert len(held["interactions"]) == 2 * total  # each submission's answers, kept apart
    saved = held["suspend_data"]
    assert saved.startswith("v=1&a=2&s=1&")
    frame.get_by_role("button", name="Start again").click()
    assert "No attempts are left" in frame.locator(".quiz-score").inner_text()
    assert frame.locator("input:enabled").count() == 0  # the submitted attempt stays closed

    # the next launch shows the submitted attempt as it was, and still allows no other
    frame = launch(
        page,
        lms,
        QUIZ_PACKAGE,
        data={"core": {"entry": "resume"}, "suspend_data": saved, "launch_data": "attempts=2"},
    )
    results = (
        "() => [...document.querySelectorAll('#quiz .quiz-question:not([hidden])')]"
        ".map((q) => q.dataset.result)"
    )
    shown = poll(sco(page), results, lambda r: None not in r)
    assert shown.count("wrong") == 1
    frame.get_by_role("button", name="Start again").click()
    assert "No attempts are left" in frame.locator(".quiz-score").inner_text()


def test_the_pass_mark_is_the_lms_s_and_a_miss_below_it_fails(page, lms):
    _, _, keys = lms
    frame = launch(page, lms, QUIZ_PACKAGE, data={"student_data": {"mastery_score": "100"}})
    total = frame.locator(QUIZ).count()
    for index in range(total):
        answer(frame, keys, index, index != 0)  # one wrong
    submit(page, frame)
    assert record(page)["core"]["lesson_status"] == "failed"
    assert "pass mark 100%" in lms_note(page)


def answer_all(frame, keys: dict, form: str) -> int:
    """Answer every question of the test `form` (a selector) right; how many there are."""
    questions = frame.locator(f"{form} .quiz-question:not([hidden])")
    total = questions.count()
    for index in range(total):
        question = questions.nth(index)
        key = keys[question_id(question)]
        if key["kind"] == "numeric":
            box = question.get_by_role("textbox")
            box.fill(str(key["answer"]))
            box.dispatch_event("change")
        else:
            question.locator(f"input[value='{key['correct']}']").check()
    return total


def submit_test(page, frame, form: str) -> str:
    """Submit the graded test `form`; its score line once it is marked."""
    frame.locator(f"{form} .quiz-submit").click()
    return poll(
        sco(page),
        f"() => document.querySelector('{form} .quiz-score').textContent",
        lambda text: text.startswith("Submitted"),
    )


@pytest.mark.parametrize("parameters", [True, False], ids=["parameters appended", "dropped"])
@pytest.mark.parametrize("package", [QUIZ_PACKAGE, "positional-encoding-lab"])
def test_a_package_reports_whether_the_lms_appends_its_launch_parameters_or_drops_them(
    page, lms, package, parameters
):
    """Some LMSes launch the resource's href alone: the quiz package then got a frame that never
    got ready, the whole course a page that reported nothing. launch.html carries what the page
    needs itself, and leaves the frame at the page, with no entry of its own to go back to."""
    _, _, keys = lms
    hold_python(page)  # the whole course's quiz page would boot it; the quiz's asks for none
    frame = launch(page, lms, package, parameters)
    connected = "() => document.querySelector('#quiz form.quiz')?.dataset.lms"
    poll(sco(page), connected, "connected".__eq__)
    answer_all(frame, keys, "#quiz")
    submit_test(page, frame, "#quiz")
    held = record(page)
    assert held["core"]["score"]["raw"] == "100"
    assert held["core"]["lesson_status"] == "passed"
    assert held["launch_data"] == "attempts=0"  # the manifest's adlcp:datafromlms, for the page
    assert "launch.html" not in sco(page).url
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSInitialize').length") == 1


@pytest.fixture
def strict_lms(lms):
    """The same test LMS, its files served with the strict Content-Security-Policy."""
    _, root, keys = lms
    with served(root, isolated=False, csp=True) as url:
        yield url, root, keys


def test_the_launch_page_works_under_the_strict_csp(page, strict_lms, page_log):
    _, _, keys = strict_lms
    frame = launch(page, strict_lms, QUIZ_PACKAGE, parameters=False)
    answer_all(frame, keys, "#quiz")
    submit_test(page, frame, "#quiz")
    assert record(page)["core"]["score"]["raw"] == "100"
    assert not [line for line in page_log.console if "Content Security Policy" in line]


@pytest.mark.parametrize("parameters", [True, False], ids=["parameters appended", "dropped"])
def test_a_chapter_package_is_graded_by_its_end_test_alone(page, lms, parameters):
    """Chapter 1's package: its end test is the graded one (the launch says `test=why-order`),
    its checks stay practice, and the LMS gets that test's submission through one session."""
    _, _, keys = lms
    hold_python(page)
    frame = open_package(page, lms, "positional-encoding-lab-chapter-1-why-order", parameters)
    form = "#test-why-order"
    poll(sco(page), f"() => document.querySelector('{form} form').dataset.lms", "connected".__eq__)
    assert sco(page).evaluate(f"() => document.querySelector('{form} form').dataset.mode") == (
        "graded"
    )
    checks = "() => [...document.querySelectorAll('.quiz-check form')].map((f) => f.dataset.mode)"
    assert set(sco(page).evaluate(checks)) <= {None, "practice"}
    total = answer_all(frame, keys, form)
    assert total >= 2
    assert submit_test(page, frame, form).startswith(f"Submitted: {total} of {total} right")
    held = record(page)
    assert held["core"]["score"]["raw"] == "100" and held["core"]["lesson_status"] == "passed"
    assert len(held["interactions"]) == total
    frame.locator(".chapter-next").scroll_into_view_if_needed()
    assert sco(page).evaluate("() => document.documentElement.dataset.lms") is None  # not the end's
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSInitialize').length") == 1


def custom_package(lms, tmp_path, chosen: list[str]) -> str:
    """A lesson of the sections `chosen` (build.py packages --sections), unzipped into the test LMS;
    its name there."""
    _, root, _ = lms
    package = write_custom_package(DIST, tmp_path, chosen, assemble_custom(chosen)[1])
    target = root / CONTENT / package.stem
    shutil.rmtree(target, ignore_errors=True)
    with zipfile.ZipFile(package) as archive:
        archive.extractall(target)
    return package.stem


@pytest.mark.parametrize("parameters", [True, False], ids=["parameters appended", "dropped"])
def test_a_lesson_without_a_test_is_completed_at_its_end(page, lms, tmp_path, parameters):
    """A lesson of sections with checks but no test item (here the training section alone)
    reports reaching its end: without that an LMS would track nothing for it."""
    hold_python(page)
    frame = open_package(page, lms, custom_package(lms, tmp_path, ["training"]), parameters)
    frame.locator(".chapter-next").wait_for(state="attached")
    poll(sco(page), "() => document.documentElement.dataset.lms", "connected".__eq__)
    assert record(page)["core"]["lesson_status"] == "incomplete"  # opened, not yet read
    assert frame.locator('form.quiz[data-quiz="test"]').count() == 0
    frame.locator(".chapter-next").scroll_into_view_if_needed()
    poll(sco(page), "() => document.documentElement.dataset.lms", "completed".__eq__)
    held = record(page)
    assert held["core"]["lesson_status"] == "completed" and held["core"]["exit"] == ""
    page.evaluate("() => { document.querySelector('#sco').src = 'about:blank'; }")
    poll(page, "() => API.isTerminated()", bool)
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSInitialize').length") == 1


def test_a_lesson_without_a_test_says_when_no_lms_answers(page, lms, tmp_path):
    hold_python(page)
    frame = open_package(page, lms, custom_package(lms, tmp_path, ["training"]), api="none")
    note = frame.locator(".chapter-lms-note")
    note.wait_for()
    assert "no course system (SCORM API) answered" in note.inner_text()
    assert sco(page).evaluate("() => document.documentElement.dataset.lms") == "missing"


def test_a_lesson_of_chosen_sections_runs_in_the_lms_and_reports_its_test(page, lms, tmp_path):
    _, _, keys = lms
    name = custom_package(lms, tmp_path, ["attention", "heatmap", "rope"])
    frame = launch(page, lms, name, parameters=False)
    steps = sco(page).evaluate(
        "() => [...document.querySelectorAll('main h2 .step')]"
        ".map((s) => [s.textContent, s.parentElement.id.replace('-title', '')])"
    )
    shown = ["attention", "heatmap", "rope", "quiz", "remember", "cell"]
    assert steps == [[str(n), name] for n, name in enumerate(shown, start=1)]
    sections = frame.locator(QUIZ).evaluate_all("(qs) => qs.map((q) => q.dataset.section)")
    assert set(sections) == {"attention", "heatmap", "rope"}
    assert frame.locator(".chapter-test").count() == 0  # its one test is the quiz section's
    poll(sco(page), "() => document.querySelector('#quiz form').dataset.lms", "connected".__eq__)
    total = answer_all(frame, keys, "#quiz")
    submit_test(page, frame, "#quiz")
    assert record(page)["core"]["score"]["raw"] == "100"
    assert len(record(page)["interactions"]) == total
    assert wait_for_state(sco(page)) == "ready"  # its demos run, from the package's own Python


def test_the_quiz_package_holds_no_python_asks_for_none_and_links_to_no_lesson(page, lms):
    """The quiz needs no Python, so its package leaves Pyodide, the wheels and pelab out (0.3 MB,
    not 21): launched by the LMS it asks for nothing the package lacks (its keys included),
    and hides the link to a full lesson it does not hold."""
    url, root, keys = lms
    folder = root / CONTENT / QUIZ_PACKAGE
    assert not (folder / "pyodide").exists() and not (folder / "py").exists()
    assert (folder / "app" / "quiz-keys.json").exists()
    missing = []
    page.on("response", lambda response: response.status >= 400 and missing.append(response.url))
    frame = launch(page, lms, QUIZ_PACKAGE)
    assert wait_for_state(sco(page)) == "ready"
    answer(frame, keys, 0, True)
    submit(page, frame)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    assert frame.locator(".embed-lesson-link").is_hidden()
    assert missing == []


def test_the_whole_lesson_package_runs_from_its_own_files_and_reports(page, lms, page_log):
    url, _, keys = lms
    frame = launch(page, lms, "positional-encoding-lab")
    assert wait_for_state(sco(page)) == "ready"  # Python from the package's own copy
    answer(frame, keys, 0, True)
    submit(page, frame)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    assert page_log.foreign_requests(url) == []
    assert not any(u.endswith("service-worker.js") for u in page_log.requests)


def test_a_review_shows_the_saved_answers_and_records_nothing(page, lms):
    url, root, keys = lms
    # the versions a graded attempt's seed draws, as a first visit saw them
    page.goto(f"{url}{CONTENT}/{QUIZ_PACKAGE}/embed.html?demo=quiz&graded")
    page.locator("#quiz form[data-mode=graded]").wait_for()
    seed = page.evaluate("() => document.querySelector('#quiz form').dataset.seed")
    names = page.evaluate(
        f"() => [...document.querySelectorAll('{CHOICES}')].slice(0, 2)"
        ".map((q) => q.querySelector('input').name)"
    )
    first, second = names
    wrong = next(iter(keys[second]["why"]))
    saved = f"v=1&a=1&s=1&r={seed}&{first}={keys[first]['correct']}&{second}={wrong}"
    data = {
        "core": {"entry": "resume", "lesson_mode": "review", "lesson_status": "failed"},
        "suspend_data": saved,
    }
    launch(page, lms, QUIZ_PACKAGE, data=data)
    assert "opened this attempt for review" in lms_note(page)
    results = (
        f"() => [...document.querySelectorAll('{CHOICES}')]"
        ".slice(0, 2).map((q) => q.dataset.result)"
    )
    poll(sco(page), results, lambda r: r == ["right", "wrong"])
    held = record(page)
    assert held["core"]["lesson_status"] == "failed" and held["core"]["score"]["raw"] == ""
    assert held["suspend_data"] == saved
    assert not [
        c
        for c in page.evaluate("() => lmsCalls")
        if c == "LMSCommit" or c.startswith("LMSSetValue")
    ]


def test_opened_as_a_plain_page_the_package_is_the_normal_lesson(page, lms):
    url, _, keys = lms
    page.goto(f"{url}{CONTENT}/{QUIZ_PACKAGE}/embed.html?demo=quiz")
    page.locator(".quiz-score").wait_for()
    answer(page, keys, 0, True)  # practice: marked at once
    poll(
        page,
        "() => document.querySelector('.quiz-score').textContent",
        lambda t: t.startswith("1 of"),
    )
    assert not page.locator(".quiz-submit").is_visible()
    assert page.locator(".lms-note").count() == 0
    assert page.evaluate("() => document.querySelector('form.quiz').dataset.lms") is None


@pytest.mark.parametrize(
    "api, says",
    [
        ("none", "no course system (SCORM API) answered"),
        ("broken", "SCORM API is broken (it has no LMSInitialize"),
    ],
)
def test_without_a_working_api_the_quiz_works_and_says_it_is_not_recorded(page, lms, api, says):
    _, _, keys = lms
    frame = launch(page, lms, QUIZ_PACKAGE, api=api)
    assert says in lms_note(page)
    answer(frame, keys, 0, True)
    answer(frame, keys, 1, False)
    assert submit(page, frame).startswith("Submitted: 1 of")


def test_an_lms_that_cannot_save_is_reported_and_the_answers_stay(page, lms):
    url, _, keys = lms
    # The LMS sends each commit to its server, which fails (this test server answers POST with 501).
    frame = launch(page, lms, QUIZ_PACKAGE, settings={"lmsCommitUrl": f"{url}store"})
    note = lms_note(page)  # the first report, at launch, already fails to save
    assert "refused to save (error " in note and "stay in this page" in note
    assert sco(page).evaluate("() => document.querySelector('form.quiz').dataset.lms") == "error"
    answer(frame, keys, 0, True)
    answer(frame, keys, 1, False)
    assert submit(page, frame).startswith("Submitted: 1 of")
    assert frame.locator(QUIZ).nth(1).locator(".quiz-explain").is_visible()
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))


def test_an_lms_that_refuses_to_start_the_session_is_reported(page, lms):
    url, root, keys = lms
    open_lms(page, url)
    # the LMS's session is already open: a second start fails
    page.evaluate("() => API.LMSInitialize('')")
    href, _ = launch_of(root / CONTENT / QUIZ_PACKAGE)
    page.evaluate(
        """(src) => {
             const f = document.createElement("iframe");
             f.id = "sco"; f.src = src; document.body.append(f);
           }""",
        f"{CONTENT}/{QUIZ_PACKAGE}/{href}",
    )
    frame = page.frame_locator("#sco").frame_locator(LESSON_FRAME)
    frame.locator(".quiz-score").wait_for()
    note = lms_note(page)
    assert "refused to start the session (error " in note
    answer(frame, keys, 0, True)
    assert submit(page, frame).startswith("Submitted: 1 of")


def test_answers_too_long_for_scorm_1_2_are_kept_in_the_page_and_the_score_still_goes(page, lms):
    _, _, keys = lms
    # A test whose first answer is 5000 characters long: its saved answers cannot fit.
    frame = launch(page, lms, QUIZ_PACKAGE)
    kinds = frame.locator(QUIZ).evaluate_all("(qs) => qs.map((q) => q.dataset.kind)")
    answer(frame, keys, next(n for n, k in enumerate(kinds) if k != "numeric"), True)
    fitted = record(page)["suspend_data"]
    assert fitted.startswith("v=1&") and len(fitted) < 100
    numeric = frame.locator(f"{QUIZ}[data-kind=numeric] input").first
    numeric.fill("0." + "0" * 4998)  # a number, written out at length
    numeric.dispatch_event("change")
    note = lms_note(page)
    assert (
        "more than the 4096 a SCORM 1.2 course system keeps" in note and "stay in this page" in note
    )
    held = record(page)
    assert held["suspend_data"] == fitted  # the last answers that fitted, not cut ones
    submit(page, frame)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))


def test_saved_answers_the_lesson_cannot_read_start_the_quiz_afresh_with_a_note(page, lms):
    _, _, keys = lms
    frame = launch(
        page, lms, QUIZ_PACKAGE, data={"core": {"entry": "resume"}, "suspend_data": "{garbage"}
    )
    assert "could not be read" in lms_note(page)
    answer(frame, keys, 0, True)
    assert record(page)["suspend_data"].startswith("v=1&")


@pytest.fixture
def thin(tmp_path, quiz_packages, lms):
    """The thin package for the lesson hosted at quiz_site, unzipped into the test LMS."""
    _, root, _ = lms
    package = write_thin_package(DIST, quiz_packages[1], tmp_path)
    target = root / CONTENT / "thin"
    shutil.rmtree(target, ignore_errors=True)
    with zipfile.ZipFile(package) as archive:
        archive.extractall(target)
    yield "thin"
    shutil.rmtree(target)


@pytest.fixture
def stranger(tmp_path):
    """A page on a third origin, for posting messages the relay must not believe."""
    (tmp_path / "stranger.html").write_text(
        "<!doctype html><title>Another site</title><p>Another site</p>"
    )
    with served(tmp_path, isolated=False) as url:
        yield f"{url}stranger.html"


def test_the_thin_package_relays_the_hosted_lesson_s_score_and_nothing_else(
    page, lms, thin, quiz_packages, stranger
):
    url, root, keys = lms
    site_url = quiz_packages[1]
    href, mastery = launch_of(root / CONTENT / thin)
    hold_python(page)  # the hosted lesson's quiz page would boot it, in the relay's frame
    open_lms(
        page,
        url,
        launch=f"{CONTENT}/{thin}/{href}",
        data={"student_data": {"mastery_score": mastery}},
    )
    lesson = page.frame_locator("#sco").frame_locator(".relay-frame")
    walk_to_the_quiz(lesson)
    lesson.locator(".quiz-score").wait_for()
    relay = launched(page)
    poll(relay, "() => document.documentElement.dataset.lms", lambda s: s == "connected")
    total = lesson.locator(QUIZ).count()
    answer(lesson, keys, 0, True)  # the hosted lesson is practice: marked at once
    poll(relay, "() => document.documentElement.dataset.quiz", lambda q: q == f"1/1/{total}")
    assert record(page)["core"]["score"]["raw"] == str(percent(1, total))

    forged = {"type": "pelab:quiz", "answered": total, "correct": total, "total": total}
    page.evaluate(
        """([src, forged]) => new Promise((done) => {
             const frame = document.createElement("iframe");
             frame.src = src;
             frame.onload = () => done();
             document.body.append(frame);
           })""",
        [stranger, forged],
    )
    other = next(f for f in page.frames if f.url == stranger)
    # another origin
    other.evaluate("(forged) => parent.frames[0].postMessage(forged, '*')", forged)
    page.evaluate("(forged) => frames[0].postMessage(forged, '*')", forged)  # the LMS's own origin
    answer(lesson, keys, 1, False)  # a real answer after the forged ones
    poll(relay, "() => document.documentElement.dataset.quiz", lambda q: q == f"2/1/{total}")
    held = record(page)
    assert held["core"]["score"]["raw"] == str(percent(1, total))
    assert held["core"]["lesson_status"] == "incomplete"
    scores = [
        c
        for c in page.evaluate("() => lmsCalls")
        if c.startswith("LMSSetValue cmi.core.score.raw=")
    ]
    assert scores == [
        "LMSSetValue cmi.core.score.raw=0",
        *[f"LMSSetValue cmi.core.score.raw={percent(1, total)}"] * 2,
    ]
    # two origins indeed
    assert site_url.startswith("http://127.0.0.1:") and not site_url.startswith(url)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translated_quiz_package_runs_in_its_language_and_reports_its_score(
    page, lms, language
):
    """Each language's quiz package (tools/scorm.py) opens that language's embed, without
    Python, and the LMS records its score as for the English one."""
    _, root, _ = lms
    package = f"{QUIZ_PACKAGE.removesuffix('-quiz')}-{language}-quiz"
    frame = open_package(page, lms, package)
    frame.locator("#quiz .quiz-score").wait_for()
    folder = root / CONTENT / package
    assert not (folder / "pyodide").exists() and not (folder / "py").exists()
    assert sco(page).evaluate("document.documentElement.lang") == language_tag(language)
    keys = read_keys(folder / "app" / f"quiz-keys.{language}.json")
    answer(frame, keys, 0, True)
    total = frame.locator(QUIZ).count()
    submit_button = frame.locator("#quiz button.quiz-submit")
    submit_button.click()  # questions unanswered: it asks first
    submit_button.click()
    raw = "() => (lmsRecord().core.score || {}).raw"
    poll(page, raw, lambda score: score == str(percent(1, total)))
    # and said in the language
    assert "Submitted" not in frame.locator("#quiz .quiz-score").inner_text()


def calls(page, name: str) -> int:
    return page.evaluate(f"() => lmsCalls.filter((c) => c === '{name}').length")


def test_the_course_records_a_learner_who_reads_two_chapters_and_stops(page, lms):
    """The whole course's package starts the session as its entrance opens, and keeps it while
    the learner walks from page to page (launch.html holds it: SCORM 1.2 allows one
    LMSInitialize, and scorm-again refuses a second after LMSFinish). A learner who reads two
    chapters and leaves is recorded where they stopped, "incomplete", and resumed there."""
    hold_python(page)
    frame = open_package(page, lms, "positional-encoding-lab")
    frame.locator(".chapters").wait_for()
    held = poll(page, "() => lmsRecord().core", lambda core: core["lesson_location"] != "")
    assert held["lesson_location"] == "index.html" and held["lesson_status"] == "incomplete"
    assert calls(page, "LMSInitialize") == 1 and calls(page, "LMSCommit") >= 1
    # a link to another site (the footer's) opens a new tab, not in the LMS's frame
    elsewhere = sco(page).evaluate(
        "() => [...document.querySelectorAll('a[href^=\"http\"]')]"
        ".map((a) => [a.target, a.textContent])"
    )
    assert elsewhere and all(
        target == "_blank" and text.endswith("(opens in a new tab)") for target, text in elsewhere
    )
    first = frame.locator(".chapter a").first.get_attribute("href")
    frame.locator(".chapter a").first.click()
    frame.locator(".chapter-next a").wait_for(state="attached")
    second = frame.locator(".chapter-next a").get_attribute("href")
    frame.locator(".chapter-next a").click()
    # waited for through the frame's locator, which follows the navigation (an evaluate in a
    # frame that is navigating can fail)
    frame.locator(f"body[data-chapter='{second.removesuffix('.html')}']").wait_for()
    where = "() => lmsRecord().core.lesson_location"
    place = poll(page, where, lambda at: at.startswith(second))
    assert first != second
    # the learner stops: the LMS unloads the package
    page.evaluate("() => { document.querySelector('#sco').src = 'about:blank'; }")
    poll(page, "() => API.isTerminated()", bool)
    held = record(page)
    assert held["core"]["lesson_status"] == "incomplete" and held["core"]["exit"] == "suspend"
    assert held["core"]["lesson_location"].startswith(second)
    assert calls(page, "LMSInitialize") == 1 and calls(page, "LMSFinish") == 1
    # one session from first page to last: nothing ended it before the learner left
    assert page.evaluate("() => lmsCalls.indexOf('LMSFinish') === lmsCalls.length - 1")
    assert page.evaluate("() => String(API.lastErrorCode)") == "0"
    assert re.fullmatch(r"\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?", held["core"]["session_time"])

    # the next launch takes the learner back where they stopped
    frame = open_package(
        page,
        lms,
        "positional-encoding-lab",
        data={"core": {"entry": "resume", "lesson_location": place, "lesson_status": "incomplete"}},
    )
    frame.locator(f"body[data-chapter='{second.removesuffix('.html')}']").wait_for()
    assert sco(page).url.split("?")[0].endswith(f"/{second}")
    assert poll(page, where, bool).startswith(second)


def outside_links(page) -> list[dict]:
    """Every link of the lesson page the package shows, with where it goes and how it opens."""
    return sco(page).evaluate(
        """() => [...document.querySelectorAll('a[href]')].filter((a) => !a.closest('[hidden]'))
             .map((a) => ({href: a.getAttribute('href'), target: a.target,
                           text: a.textContent.trim()}))"""
    )


def test_the_quiz_package_asks_only_what_it_can_and_no_link_takes_the_frame_away(page, lms):
    """The quiz's package holds no Python and no lesson to open (`lesson=none`): a question read
    off a live demo is left out, none tells the learner to try a demo, and no link, before or
    after Submit, leads out of the page it shows."""
    _, _, keys = lms
    frame = launch(page, lms, QUIZ_PACKAGE)
    names = frame.locator(QUIZ).evaluate_all(
        "(qs) => qs.map((q) => q.querySelector('input').name)"
    )
    assert "quiz-rope-offset" not in names  # quiz_lesson.py's item read off the rope figure
    assert frame.locator("[data-setup], .quiz-setup, .quiz-try, .quiz-refers").count() == 0
    numbers = frame.locator(f"{QUIZ} .quiz-number").all_inner_texts()
    assert numbers == [f"{n}." for n in range(1, len(names) + 1)]
    legends = " ".join(frame.locator(f"{QUIZ} legend").all_inner_texts())
    assert not re.search(r"\b(demo|slider|drag)", legends, flags=re.I)

    def check_links():
        for link in outside_links(page):
            local = link["href"].startswith("#")
            assert local or link["target"] == "_blank", link
            if not local:
                assert "(opens in a new tab)" in link["text"], link

    check_links()
    for index in range(len(names)):
        answer(frame, keys, index, index % 2 == 0)
    submit(page, frame)
    assert frame.locator(".quiz-explain:visible").count() > 0
    check_links()
    assert [link for link in outside_links(page) if not link["href"].startswith("#")] == []


def test_the_quiz_s_embed_with_a_lesson_opens_it_in_a_new_tab_and_says_so(page, lms):
    """The quiz's embed on a course page (a lesson to open: no `lesson=none`): its links to the
    lesson's sections open a new tab, say so, and go to the lesson's own pages."""
    url, _, _ = lms
    page.goto(f"{url}{CONTENT}/{QUIZ_PACKAGE}/embed.html?demo=quiz")
    page.locator(".quiz-score").wait_for()
    links = page.evaluate(
        """() => [...document.querySelectorAll('#quiz a[href], .embed-lesson-link')]
             .map((a) => [a.getAttribute('href'), a.target, a.textContent])"""
    )
    assert links and all(target == "_blank" for _, target, _ in links)
    assert all("(opens in a new tab)" in text for _, _, text in links)
    assert all(href.startswith(url) for href, _, _ in links[:-1])  # resolved from its chapter


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translated_course_records_the_place_in_its_language_s_folder(page, lms, language):
    """The zh and es course packages open at LANG/index.html: the place they record is in that
    folder, so a return visit reopens the page in the learner's language."""
    hold_python(page)
    frame = open_package(page, lms, f"positional-encoding-lab-{language}")
    frame.locator(".chapters").wait_for()
    where = "() => lmsRecord().core.lesson_location"
    assert poll(page, where, bool) == f"{language}/index.html"
    chapter = frame.locator(".chapter").first.get_attribute("data-chapter")
    frame.locator(".chapter a").first.click()
    frame.locator(f"body[data-chapter='{chapter}']").wait_for()
    assert poll(page, where, lambda at: at != f"{language}/index.html").startswith(
        f"{language}/{chapter}.html"
    )
    assert record(page)["core"]["lesson_status"] == "incomplete"
    assert calls(page, "LMSInitialize") == 1
