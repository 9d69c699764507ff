"""The SCORM 1.2 packages in a real SCORM runtime: scorm-again (npm) plays the LMS in a test page
(tests/browser/lms/host.html) that launches a package in an iframe, under a deep sub-path like
Moodle's, on an origin of its own. A learner answers the quiz; the test reads what the LMS holds.
Then: a return visit, no LMS, a broken one, one that says no, answers too long to save, and the
thin package's relay, which must believe only the lesson it frames. Every package opens at its
own launch.html, and must work whether the LMS appends the manifest's `parameters` to it or
drops them; a chapter package without a quiz reports reaching the chapter's end."""

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

from pages import PAGE_OF, poll, wait_for_state
from site_server import DIST, ROOT, served
from tools.lesson import assemble_custom
from tools.scorm import write_custom_package, write_thin_package

HERE = Path(__file__).parent / "lms"
SCORM_AGAIN = ROOT / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
CONTENT = "mod/scorm/content/7"  # where the LMS serves a package's files: any folder must do
NS = {"cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2"}
QUIZ = "#quiz .quiz-question"


def percent(correct: int, total: int) -> int:
    """The score the quiz sends: JavaScript's Math.round of the percentage (halves round up, where
    Python's round() would go to even: 2 of 16 is 12.5, sent as 13). Exact: the division is the
    same IEEE double in both languages."""
    return math.floor(100 * correct / total + 0.5)


def unpacked(folder: Path) -> Path:
    """The package of dist/scorm/ named by `folder`'s name, unzipped there on first use (seven
    packages of 50 MB each: only those a test launches)."""
    if not folder.exists():
        with zipfile.ZipFile(DIST / "scorm" / f"{folder.name}.zip") as archive:
            archive.extractall(folder)
    return folder


def manifest_item(folder: Path):
    root = ET.parse(unpacked(folder) / "imsmanifest.xml").getroot()
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
def lms(tmp_path_factory):
    """A test LMS on its own origin: the host page, scorm-again, and each package unzipped."""
    root = tmp_path_factory.mktemp("lms")
    for name in ("host.html", "host.js"):
        shutil.copy(HERE / name, root / name)
    shutil.copy(SCORM_AGAIN, root / "scorm12.js")
    packages = sorted((DIST / "scorm").glob("*.zip"))
    assert packages, "dist/scorm/ has no packages: run python3 build.py build"
    (root / CONTENT).mkdir(parents=True)  # each package is unzipped there when first launched
    with served(root, isolated=False) as url:  # an LMS sends no COOP/COEP headers
        yield url, root


def open_lms(page, lms_url: str, **options) -> None:
    page.goto("about:blank")  # a new document each time, not just a new fragment
    page.goto(f"{lms_url}host.html#{quote(json.dumps(options))}")


def open_package(page, lms, package: str, parameters: bool = True, **options):
    """Open the test LMS launching `package` as an LMS does: the manifest's launch URL (with or
    without its parameters), its mastery score and its launch data handed to the runtime."""
    url, root = lms
    href, mastery = launch_of(root / CONTENT / package, parameters)
    item, _ = manifest_item(root / CONTENT / package)
    data = options.pop("data", {})
    data.setdefault("student_data", {}).setdefault("mastery_score", mastery)
    data.setdefault("launch_data", item.findtext("adlcp:datafromlms", namespaces=NS) or "")
    open_lms(page, url, launch=f"{CONTENT}/{package}/{href}", data=data, **options)
    return page.frame_locator("#sco")


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


def sco(page):
    """The launched package's frame (for evaluate; frame_locator is for clicks)."""
    return page.locator("#sco").element_handle().content_frame()


def record(page) -> dict:
    return page.evaluate("() => lmsRecord()")


def answer(frame, index: int, right: bool) -> None:
    question = frame.locator(QUIZ).nth(index)
    option = question.locator("input[data-correct]" if right else "input:not([data-correct])").first
    option.check()
    assert question.get_attribute("data-result") == ("right" if right else "wrong")


def lms_note(page) -> str:
    frame = sco(page)
    poll(frame, "() => document.querySelector('.lms-note')?.textContent ?? ''", bool)
    return frame.evaluate("() => document.querySelector('.lms-note').textContent")


def test_the_quiz_package_reports_every_answer_and_resumes_on_the_next_launch(page, lms):
    frame = launch(page, lms, "positional-encoding-lab-quiz")
    poll(
        sco(page),
        "() => document.querySelector('form.quiz').dataset.lms",
        lambda s: s == "connected",
    )
    total = frame.locator(QUIZ).count()
    assert total >= 5
    assert record(page)["core"]["lesson_status"] == "incomplete"  # started, nothing answered yet
    for index, right in enumerate([True, False, True, False]):
        answer(frame, index, right)
    held = record(page)
    assert held["core"]["lesson_status"] == "incomplete"
    assert held["core"]["score"] == {"raw": str(percent(2, total)), "min": "0", "max": "100"}
    assert held["core"]["exit"] == "suspend"  # asks the LMS to resume this attempt
    assert re.fullmatch(r"\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?", held["core"]["session_time"])
    saved = held["suspend_data"]
    chosen = sco(page).evaluate(
        "() => [...document.querySelectorAll('.quiz-question input:checked')]"
        ".map((i) => [i.name, i.value])"
    )
    assert (
        saved == "v=1&" + "&".join(f"{name}={value}" for name, value in chosen)
        and len(chosen) == 4
    )
    # one per answer
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSCommit').length") >= 5

    # the learner leaves
    page.evaluate("() => { document.querySelector('#sco').src = 'about:blank'; }")
    poll(page, "() => API.isTerminated()", bool)
    assert page.evaluate("() => lmsCalls.at(-1)") == "LMSFinish"

    # The return visit: the LMS hands back what it kept.
    frame = launch(
        page,
        lms,
        "positional-encoding-lab-quiz",
        data={"core": {"entry": "resume"}, "suspend_data": saved},
    )
    results = (
        "() => [...document.querySelectorAll('.quiz-question')]"
        ".map((q) => q.dataset.result ?? null)"
    )
    restored = poll(sco(page), results, lambda r: r[:4] == ["right", "wrong", "right", "wrong"])
    assert restored[4:] == [None] * (total - 4)
    assert frame.locator(".quiz-score").inner_text() == f"4 of {total} answered, 2 right."
    # marked and explained again
    assert frame.locator(QUIZ).nth(1).locator(".quiz-explain").is_visible()
    for index in range(4, total):
        answer(frame, index, True)
    held = record(page)
    raw = percent(total - 2, total)
    assert held["core"]["score"]["raw"] == str(raw)
    assert held["core"]["lesson_status"] == ("passed" if raw >= 80 else "failed")
    assert held["core"]["exit"] == ""


def test_starting_again_never_lowers_the_finished_score_the_lms_holds(page, lms):
    frame = launch(page, lms, "positional-encoding-lab-quiz")
    total = frame.locator(QUIZ).count()
    for index in range(total):
        answer(frame, index, index != 0)  # one wrong
    first = percent(total - 1, total)
    assert record(page)["core"]["score"]["raw"] == str(first)
    frame.get_by_role("button", name="Start again").click()
    answer(frame, 0, False)
    held = record(page)
    assert held["core"]["score"]["raw"] == str(first)  # not the new round's 0
    assert held["core"]["lesson_status"] == ("passed" if first >= 80 else "failed")
    assert held["suspend_data"].count("=") == 2  # v=1 and the new round's one answer, for a resume
    assert "keeps your best finished score" in lms_note(page)
    for index in range(1, total):
        answer(frame, index, index != 1)  # two wrong in all: finished, but worse
    assert record(page)["core"]["score"]["raw"] == str(first)
    frame.get_by_role("button", name="Start again").click()
    for index in range(total):
        answer(frame, index, True)  # finished and better: this one counts
    held = record(page)
    assert held["core"]["score"]["raw"] == "100" and held["core"]["lesson_status"] == "passed"


def test_the_pass_mark_is_the_lms_s_and_a_miss_below_it_fails(page, lms):
    frame = launch(
        page, lms, "positional-encoding-lab-quiz", data={"student_data": {"mastery_score": "100"}}
    )
    total = frame.locator(QUIZ).count()
    for index in range(total):
        answer(frame, index, index != 0)  # one wrong
    assert record(page)["core"]["lesson_status"] == "failed"
    assert "pass mark 100%" in lms_note(page)


def test_the_quiz_package_holds_no_python_asks_for_none_and_links_to_no_lesson(page, lms):
    """The quiz needs no Python, so its package leaves Pyodide, the wheels and pelab out (0.3 MB,
    not 21): launched by the LMS it asks for nothing the package lacks, and hides the link to a
    full lesson it does not hold."""
    url, root = lms
    folder = unpacked(root / CONTENT / "positional-encoding-lab-quiz")
    assert not (folder / "pyodide").exists() and not (folder / "py").exists()
    assert (DIST / "scorm" / "positional-encoding-lab-quiz.zip").stat().st_size < 1e6
    missing = []
    page.on("response", lambda response: response.status >= 400 and missing.append(response.url))
    frame = launch(page, lms, "positional-encoding-lab-quiz")
    assert wait_for_state(sco(page)) == "ready"
    answer(frame, 0, True)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    assert frame.locator(".embed-lesson-link").is_hidden()
    assert missing == []


@pytest.mark.parametrize("parameters", [True, False], ids=["parameters appended", "dropped"])
@pytest.mark.parametrize("package", ["positional-encoding-lab-quiz", "positional-encoding-lab"])
def test_a_package_reports_whether_the_lms_appends_its_launch_parameters_or_drops_them(
    page, lms, package, parameters
):
    """Some LMSes launch the resource's href alone: the quiz package then got a frame that never
    got ready, the whole course a page that reported nothing. launch.html carries what the page
    needs itself, and leaves the frame at the page, with no entry of its own to go back to."""
    frame = launch(page, lms, package, parameters)
    poll(sco(page), "() => document.querySelector('form.quiz')?.dataset.lms", "connected".__eq__)
    total = frame.locator(QUIZ).count()
    answer(frame, 0, True)
    held = record(page)
    assert held["core"]["score"]["raw"] == str(percent(1, total))
    assert held["core"]["lesson_status"] == "incomplete"
    assert held["launch_data"] == "attempts=0"  # the manifest's adlcp:datafromlms, for the page
    assert "launch.html" not in sco(page).url
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSInitialize').length") == 1


@pytest.fixture
def strict_lms(lms):
    """The same test LMS, its files served with the strict Content-Security-Policy."""
    _, root = lms
    with served(root, isolated=False, csp=True) as url:
        yield url, root


def test_the_launch_page_works_under_the_strict_csp(page, strict_lms, page_log):
    frame = launch(page, strict_lms, "positional-encoding-lab-quiz", parameters=False)
    answer(frame, 0, True)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    assert not [line for line in page_log.console if "Content Security Policy" in line]


@pytest.mark.parametrize("parameters", [True, False], ids=["parameters appended", "dropped"])
def test_a_chapter_package_without_a_quiz_is_completed_at_the_chapter_s_end(page, lms, parameters):
    frame = open_package(page, lms, "positional-encoding-lab-chapter-1-why-order", parameters)
    frame.locator(".chapter-next").wait_for(state="attached")
    poll(sco(page), "() => document.documentElement.dataset.lms", "connected".__eq__)
    assert record(page)["core"]["lesson_status"] == "incomplete"  # opened, not yet read
    assert frame.locator("form.quiz").count() == 0
    frame.locator(".chapter-next").scroll_into_view_if_needed()
    poll(sco(page), "() => document.documentElement.dataset.lms", "completed".__eq__)
    held = record(page)
    assert held["core"]["lesson_status"] == "completed" and held["core"]["exit"] == ""
    page.evaluate("() => { document.querySelector('#sco').src = 'about:blank'; }")
    poll(page, "() => API.isTerminated()", bool)
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSInitialize').length") == 1


def test_a_chapter_package_with_the_quiz_is_graded_by_it_alone(page, lms):
    """The review chapter holds the quiz: its score is what the LMS gets, through one session."""
    frame = open_package(page, lms, "positional-encoding-lab-chapter-5-review", parameters=False)
    frame.locator(".quiz-score").wait_for()
    poll(sco(page), "() => document.querySelector('form.quiz').dataset.lms", "connected".__eq__)
    answer(frame, 0, True)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    frame.locator(".chapter-next").scroll_into_view_if_needed()
    assert record(page)["core"]["lesson_status"] == "incomplete"  # the quiz's say, not the end's
    assert sco(page).evaluate("() => document.documentElement.dataset.lms") is None
    assert page.evaluate("() => lmsCalls.filter((c) => c === 'LMSInitialize').length") == 1


def test_a_chapter_package_says_when_no_lms_answers(page, lms):
    frame = open_package(page, lms, "positional-encoding-lab-chapter-2-geometry", api="none")
    note = frame.locator(".chapter-lms-note")
    note.wait_for()
    assert "no course system (SCORM API) answered" in note.inner_text()
    assert sco(page).evaluate("() => document.documentElement.dataset.lms") == "missing"


@pytest.fixture
def custom(tmp_path, lms):
    """A lesson of three sections (build.py build --sections attention,heatmap,rope), unzipped
    into the test LMS."""
    _, root = lms
    chosen = ["attention", "heatmap", "rope"]
    package = write_custom_package(DIST, tmp_path, chosen, assemble_custom(chosen)[1])
    target = root / CONTENT / "custom"
    shutil.rmtree(target, ignore_errors=True)
    with zipfile.ZipFile(package) as archive:
        archive.extractall(target)
    yield "custom"
    shutil.rmtree(target)


def test_a_lesson_of_chosen_sections_runs_in_the_lms_and_reports_its_quiz(page, lms, custom):
    frame = launch(page, lms, custom, parameters=False)
    steps = sco(page).evaluate(
        "() => [...document.querySelectorAll('main h2 .step')]"
        ".map((s) => [s.textContent, s.parentElement.id.replace('-title', '')])"
    )
    shown = ["attention", "heatmap", "rope", "quiz", "remember", "cell"]
    assert steps == [[str(n), name] for n, name in enumerate(shown, start=1)]
    sections = frame.locator(QUIZ).evaluate_all("(qs) => qs.map((q) => q.dataset.section)")
    assert list(dict.fromkeys(sections)) == ["attention", "heatmap", "rope"]
    poll(sco(page), "() => document.querySelector('form.quiz').dataset.lms", "connected".__eq__)
    answer(frame, 0, True)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    assert wait_for_state(sco(page)) == "ready"  # its demos run, from the package's own Python


def test_the_whole_lesson_package_runs_from_its_own_files_and_reports(page, lms, page_log):
    url, _ = lms
    frame = launch(page, lms, "positional-encoding-lab")
    assert wait_for_state(sco(page)) == "ready"  # Python from the package's own copy
    answer(frame, 0, True)
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))
    assert page_log.foreign_requests(url) == []
    assert not any(u.endswith("service-worker.js") for u in page_log.requests)


def test_a_review_shows_the_saved_answers_and_records_nothing(page, lms):
    url, root = lms
    unpacked(root / CONTENT / "positional-encoding-lab-quiz")
    # no LMS: just read the quiz
    page.goto(f"{url}{CONTENT}/positional-encoding-lab-quiz/embed.html?demo=quiz")
    page.locator(".quiz-score").wait_for()
    options = """() => [...document.querySelectorAll('.quiz-question')].slice(0, 2).map((q) => [
        q.querySelector('input').name,
        q.querySelector('input[data-correct]').value,
        q.querySelector('input:not([data-correct])').value])"""
    (first, right, _), (second, _, wrong) = page.evaluate(options)
    saved = f"v=1&{first}={right}&{second}={wrong}"  # question 1 right, question 2 wrong
    data = {
        "core": {"entry": "resume", "lesson_mode": "review", "lesson_status": "failed"},
        "suspend_data": saved,
    }
    frame = launch(page, lms, "positional-encoding-lab-quiz", data=data)
    assert "opened this attempt for review" in lms_note(page)
    results = (
        "() => [...document.querySelectorAll('.quiz-question')]"
        ".slice(0, 2).map((q) => q.dataset.result)"
    )
    poll(sco(page), results, lambda r: r == ["right", "wrong"])
    answer(frame, 2, True)
    held = record(page)
    assert held["core"]["lesson_status"] == "failed" and held["core"]["score"]["raw"] == ""
    assert held["suspend_data"] == saved
    assert not [
        c
        for c in page.evaluate("() => lmsCalls")
        if c == "LMSCommit" or c.startswith("LMSSetValue")
    ]


def test_opened_as_a_plain_page_the_package_is_the_normal_lesson(page, lms):
    url, root = lms
    unpacked(root / CONTENT / "positional-encoding-lab-quiz")
    page.goto(f"{url}{CONTENT}/positional-encoding-lab-quiz/embed.html?demo=quiz")
    page.locator(".quiz-score").wait_for()
    page.locator(QUIZ).first.locator("input[data-correct]").check()
    assert page.locator(".quiz-score").inner_text().startswith("1 of")
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
    frame = launch(page, lms, "positional-encoding-lab-quiz", api=api)
    assert says in lms_note(page)
    answer(frame, 0, True)
    answer(frame, 1, False)
    assert frame.locator(".quiz-score").inner_text().startswith("2 of")


def test_an_lms_that_cannot_save_is_reported_and_the_answers_stay(page, lms):
    url, _ = lms
    # The LMS sends each commit to its server, which fails (this test server answers POST with 501).
    frame = launch(
        page, lms, "positional-encoding-lab-quiz", settings={"lmsCommitUrl": f"{url}store"}
    )
    note = lms_note(page)  # the first report, at launch, already fails to save
    assert "refused to save (error " in note and "stay in this page" in note
    assert sco(page).evaluate("() => document.querySelector('form.quiz').dataset.lms") == "error"
    answer(frame, 0, True)
    answer(frame, 1, False)
    assert frame.locator(".quiz-score").inner_text().startswith("2 of")
    assert frame.locator(QUIZ).nth(1).locator(".quiz-explain").is_visible()
    assert record(page)["core"]["score"]["raw"] == str(percent(1, frame.locator(QUIZ).count()))


def test_an_lms_that_refuses_to_start_the_session_is_reported(page, lms):
    url, _ = lms
    open_lms(page, url)
    # the LMS's session is already open: a second start fails
    page.evaluate("() => API.LMSInitialize('')")
    href, _ = launch_of(lms[1] / CONTENT / "positional-encoding-lab-quiz")
    page.evaluate(
        """(src) => {
             const f = document.createElement("iframe");
             f.id = "sco"; f.src = src; document.body.append(f);
           }""",
        f"{CONTENT}/positional-encoding-lab-quiz/{href}",
    )
    frame = page.frame_locator("#sco")
    frame.locator(".quiz-score").wait_for()
    note = lms_note(page)
    assert "refused to start the session (error " in note
    answer(frame, 0, True)
    assert frame.locator(".quiz-score").inner_text().startswith("1 of")


def test_answers_too_long_for_scorm_1_2_are_kept_in_the_page_and_the_score_still_goes(page, lms):
    # A quiz whose first question's radios have a 5000-character name: its saved answers cannot fit.
    long_name = "q" * 5000

    def lengthen(route):
        body = route.fetch().text()
        first = re.search(r'class="quiz-question".*?name="([^"]+)"', body, re.S).group(1)
        route.fulfill(
            body=body.replace(f'name="{first}"', f'name="{long_name}"'), content_type="text/html"
        )

    # the page the embed reads the quiz's section from: its chapter's
    quiz_page = re.escape(PAGE_OF["quiz"])
    page.route(re.compile(rf".*/content/7/positional-encoding-lab-quiz/{quiz_page}$"), lengthen)
    frame = launch(page, lms, "positional-encoding-lab-quiz")
    answer(frame, 1, True)
    fitted = record(page)["suspend_data"]
    assert fitted.startswith("v=1&") and len(fitted) < 100
    answer(frame, 0, True)
    note = lms_note(page)
    assert (
        "more than the 4096 a SCORM 1.2 course system keeps" in note
        and "stay in this page" in note
    )
    held = record(page)
    assert held["suspend_data"] == fitted  # the last answers that fitted, not cut ones
    assert held["core"]["score"]["raw"] == str(percent(2, frame.locator(QUIZ).count()))


def test_saved_answers_the_lesson_cannot_read_start_the_quiz_afresh_with_a_note(page, lms):
    frame = launch(
        page,
        lms,
        "positional-encoding-lab-quiz",
        data={"core": {"entry": "resume"}, "suspend_data": "{garbage"},
    )
    assert "could not be read" in lms_note(page)
    answer(frame, 0, True)
    assert record(page)["suspend_data"].startswith("v=1&")


@pytest.fixture
def thin(tmp_path, site_url, lms):
    """The thin package for the lesson at site_url, unzipped into the test LMS."""
    _, root = lms
    package = write_thin_package(DIST, site_url, tmp_path)
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
    page, lms, thin, site_url, stranger
):
    url, root = lms
    href, mastery = launch_of(root / CONTENT / thin)
    open_lms(
        page,
        url,
        launch=f"{CONTENT}/{thin}/{href}",
        data={"student_data": {"mastery_score": mastery}},
    )
    lesson = page.frame_locator("#sco").frame_locator(".relay-frame")
    walk_to_the_quiz(lesson)
    lesson.locator(".quiz-score").wait_for()
    relay = sco(page)
    poll(relay, "() => document.documentElement.dataset.lms", lambda s: s == "connected")
    total = lesson.locator(QUIZ).count()
    answer(lesson, 0, True)
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
    answer(lesson, 1, False)  # a real answer after the forged ones
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
