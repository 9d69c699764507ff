"""Every figure at first paint (issue 36): each live demo shows the result the build computed
(tools/first_results.py) before Python is ready, or without it; goes live when Python is ready;
and a change made before then is computed once it is."""

from __future__ import annotations

import pytest

from pages import CHAPTER_PAGES, PAGE_OF, boot, dataset, poll, wait_for_state
from tools.demo_lists import not_live, pictured
from tools.first_results import first_calls
from tools.lesson import demo_sections

CALLS = first_calls()  # the live demos that ship a first result, by name
PYODIDE = "**/pyodide/**"  # every file of the runtime: blocked, Python never arrives

# Each demo's state at first paint: data-live, whether dimmed, its .problem if shown.
STATES = """() => Object.fromEntries([...document.querySelectorAll('section.demo')].map((s) => [
  s.id,
  {live: s.dataset.live ?? null, stale: 'stale' in s.dataset,
   problem: s.querySelector('.problem')?.hidden === false
     ? s.querySelector('.problem').textContent : null},
]))"""


def test_every_live_demo_ships_a_first_result():
    """Every live demo but the pictured ones ships one (the build refuses a live demo without
    one), and a chapter page holds each."""
    live = [name for name in demo_sections() if name not in not_live()]
    assert list(CALLS) == [name for name in live if name not in pictured()]
    assert CALLS and all(name in PAGE_OF for name in CALLS)


@pytest.mark.parametrize("chapter", CHAPTER_PAGES)
def test_with_python_blocked_every_figure_shows_and_the_page_says_python_could_not_start(
    page, site_url, page_log, chapter
):
    page.route(PYODIDE, lambda route: route.abort())
    page.goto(site_url + chapter)
    assert wait_for_state(page) == "error"
    assert page.locator(".boot-error").is_visible()
    assert page.get_by_role("button", name="Retry").is_visible()
    expected = {name for name in CALLS if PAGE_OF[name] == chapter}
    states = poll(
        page,
        STATES,
        lambda s: all(s.get(name, {}).get("live") == "shipped" for name in expected),
        timeout=20,
    )
    for name in expected:
        assert states[name] == {"live": "shipped", "stale": False, "problem": None}, name
    if "heatmap" in states:  # its picture, drawn at build time, is in the page
        assert page.locator("#heatmap .heatmap-placeholder").is_visible()


def test_a_demo_draws_its_figures_from_the_shipped_result(page, site_url):
    """The similarity demo with Python blocked: its readouts, numbers and pictures are there."""
    page.route(PYODIDE, lambda route: route.abort())
    page.goto(site_url + PAGE_OF["similarity"])
    poll(page, "() => document.querySelector('#similarity').dataset.live", lambda v: v == "shipped")
    kwargs = CALLS["similarity"]["kwargs"]
    assert dataset(page, "#similarity", "rendered") == (
        f"{kwargs['seq_len']}x{kwargs['d_model']}@{kwargs['base']}:{kwargs['pos']}"
    )
    assert page.locator("#similarity .similarity-toeplitz").inner_text().startswith(
        "Every diagonal holds a single value"
    )
    size = page.evaluate("() => [document.querySelector('.similarity-dot').width]")
    assert size == [kwargs["seq_len"]]


def test_a_change_before_python_is_ready_waits_dimmed_and_is_computed_once_it_is(page, site_url):
    held = []  # the runtime's requests, answered only when the test lets them through
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + PAGE_OF["relative"])
    poll(page, "() => document.querySelector('#relative').dataset.live", lambda v: v == "shipped")
    k = CALLS["relative"]["kwargs"]["k"]
    slider = page.locator("#relative [name=k]")
    slider.focus()
    page.keyboard.press("ArrowRight")
    states = poll(page, STATES, lambda s: s["relative"]["live"] == "waiting")
    assert states["relative"]["stale"] is True
    note = page.locator("#relative .demo-waiting")
    assert note.is_visible()
    assert "Live in a moment" in note.inner_text()
    assert note.get_attribute("role") == "status"
    poll(page, "() => 0", lambda _: bool(held), timeout=60)
    for route in held:
        route.continue_()
    page.route("**/pyodide.asm.wasm", lambda route: route.continue_())
    assert wait_for_state(page) == "ready"
    poll(page, STATES, lambda s: s["relative"]["live"] == "shown", timeout=60)
    assert dataset(page, "#relative", "rendered").startswith(f"{k + 1}/")
    assert not note.is_visible()
    assert "stale" not in page.evaluate("() => ({...document.querySelector('#relative').dataset})")


def test_an_embed_at_the_first_settings_shows_its_result_and_one_at_others_waits(page, site_url):
    page.route(PYODIDE, lambda route: route.abort())
    page.goto(site_url + "embed.html?demo=relative")
    poll(page, "() => document.querySelector('#relative')?.dataset.live", lambda v: v == "shipped")
    k = CALLS["relative"]["kwargs"]["k"]
    page.goto("about:blank")  # (the same address with a new #fragment would only scroll)
    page.goto(site_url + f"embed.html?demo=relative#k={k + 2}")
    state = poll(
        page,
        "() => document.querySelector('#relative')?.dataset.live ?? null",
        lambda v: v in ("waiting", "failed"),
    )
    assert state in ("waiting", "failed")
    # never the first settings' figure as if it were the asked one: nothing was drawn
    assert dataset(page, "#relative", "rendered") is None
    assert "stale" in page.evaluate("() => ({...document.querySelector('#relative').dataset})")


def test_each_shipped_result_is_what_the_entry_point_returns_number_for_number(page, site_url):
    """Each shipped result against the entry point called in the page's own Pyodide with the
    same arguments: every key, every number (NaN equal to NaN), every byte."""
    boot(page, site_url, PAGE_OF["relative"])
    differences = page.evaluate(
        """async (calls) => {
          const load = (path) => import(new URL(path, document.baseURI));
          const { PythonBridge } = await load('app/python/bridge.js');
          const { firstResult } = await load('app/demos/first-results.js');
          const python = new PythonBridge();
          await python.ready;
          const same = (a, b) => Object.is(a, b) || a === b;
          const found = {};
          for (const [name, { entry, kwargs }] of Object.entries(calls)) {
            const shipped = await firstResult(name, entry, kwargs);
            const live = await python.call(entry, kwargs);
            const problems = [];
            if (!shipped) problems.push('no shipped result');
            const keys = new Set([...Object.keys(shipped ?? {}), ...Object.keys(live)]);
            for (const key of keys) {
              const [a, b] = [shipped?.[key], live[key]];
              if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
                const kind = (x) => x?.constructor?.name;
                if (kind(a) !== kind(b) || a.length !== b.length
                    || a.some((x, k) => !same(x, b[k])))
                  problems.push(`${key}: ${kind(a)} differs from ${kind(b)}`);
              } else if (JSON.stringify(a) !== JSON.stringify(b) && !same(a, b)) {
                problems.push(`${key}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`);
              }
            }
            found[name] = problems;
          }
          return found;
        }""",
        CALLS,
    )
    assert set(differences) == set(CALLS)
    assert {name: problems for name, problems in differences.items() if problems} == {}
