"""The training demo's and the extrapolation experiment's figures, for `python3 build.py bench`
(and `--only training`): how long the default training takes to a structured table, how fast it
steps, and how long the experiment runs, each from the click (Python's boot included)."""

from __future__ import annotations

import statistics

from page_marks import MARK, MARKS, wait_for_mark, wait_ready


def training_run(browser, url: str) -> dict:
    """The training demo's default run on its page at `url`, from Train to a structured table
    (its band contrast reaching the page's threshold). The heatmap, whose slider this once
    dragged while the model trained, is on another chapter's page now: no learner can drag it
    during a run."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        page.locator("#training .training-train").click()
        structured = wait_for_mark(page, MARKS["TRAINING_STRUCTURED"])
        start = page.evaluate(MARK, MARKS["TRAINING_START"])
        booted = page.evaluate(MARK, MARKS["TRAINING_BOOTED"])
        steps_at = int(
            page.evaluate("() => document.querySelector('#training').dataset.structuredAt")
        )
        return {
            "train_ms": structured - start,
            "train_boot_ms": booted - start,
            "train_steps_to_structured": steps_at,
            "train_steps_per_s": float(
                page.evaluate(
                    "() => document.querySelector('#training').dataset.stepsPerSecond"
                )
            ),
        }
    finally:
        context.close()


def experiment_run(browser, url: str, quick: bool) -> float:
    """The extrapolation experiment on its page at `url`, Run to done (its Python's boot
    included), in ms."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        if quick:
            page.locator("#extrapolation [name=quick]").check()
        page.locator("#extrapolation .extrapolation-run").click()
        done = wait_for_mark(page, MARKS["EXPERIMENT_DONE"], timeout=600)
        return done - page.evaluate(MARK, MARKS["EXPERIMENT_START"])
    finally:
        context.close()


def training_figures(runs: list[dict]) -> dict:
    """The training demo's figures: medians over runs."""
    return {
        "train_runs": len(runs),
        "train_ms": round(statistics.median(run["train_ms"] for run in runs)),
        "train_boot_ms": round(statistics.median(run["train_boot_ms"] for run in runs)),
        "train_steps_to_structured": statistics.median(
            run["train_steps_to_structured"] for run in runs
        ),
        "train_steps_per_s": round(statistics.median(run["train_steps_per_s"] for run in runs), 1),
    }
