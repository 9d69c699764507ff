#!/usr/bin/env python3
"""Build, serve and test Positional Encoding Lab.

    python3 build.py build   bundle the site into dist/ (self-hosted Pyodide, offline)
    python3 build.py serve   build what is missing, then serve dist/ on http://127.0.0.1:8000,
                             rebuilding what an edit touches
    python3 build.py packages
                             build, then write the SCORM 1.2 packages into packages/scorm/
                             (tools/packages.py)
    python3 build.py test    install what the tests need, build, make the packages, run the whole
                             suite (`test --fast`: the site and pytest only)
    python3 build.py bench   measure the built site in headless Chromium (bench/results.json)
    python3 build.py translations
                             extract the lesson's messages into locale/messages.pot and update
                             each language's catalog, locale/LANG.po (tools/i18n.py)
    python3 build.py check   verify every vendored file in dist/ against its pinned hash
    python3 build.py clean   remove dist/ and packages/ (downloads stay cached in .cache/)

Standard library only: a fresh machine needs nothing but python3, node/npm and, for the
tests, what `test` installs by itself. The Pyodide pin lives in package.json (and its lock);
every wheel vendored from elsewhere is checked against the official pyodide-lock.json.
This file is only the command line: each job is a module of tools/ (see tools/__init__.py).
"""

from __future__ import annotations

import argparse
import shutil
import sys

from tools.i18n import LANGUAGES
from tools.languages import update as update_translations
from tools.packages import PACKAGES, make_packages
from tools.project import DIST, log
from tools.served_pyodide import check
from tools.server import serve
from tools.site import build
from tools.suites import bench, test
from tools.vendor_pyodide import PYODIDE_CDN


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="build.py",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    build_cmd = commands.add_parser("build", help="bundle the site into dist/")
    build_cmd.add_argument(
        "--pyodide-cdn",
        nargs="?",
        const=PYODIDE_CDN,
        metavar="URL",
        help="a light dist/ that loads Pyodide from its official CDN (or URL, where {version} "
        "stands for the pinned version) instead of vendoring it",
    )
    build_cmd.add_argument(
        "--deflated-zips",
        dest="stored_zips",
        action="store_false",
        help="keep Pyodide's zips and wheels deflated as released, for hosts that neither send "
        "dist/'s .br/.gz copies nor compress zips "
        "(GitHub Pages, Cloudflare Pages: docs/hosting.md)",
    )
    build_cmd.add_argument(
        "--no-answer-key",
        dest="answer_key",
        action="store_false",
        help="leave answer-key.html (the teachers' answer key, public on a hosted site) out of "
        "dist/",
    )
    build_cmd.add_argument(
        "--site-url",
        metavar="URL",
        help="the address the site will be served at (https://example.org/lab/): every page's "
        "hreflang links become absolute and name the page as canonical, as search engines want "
        "them (without it they are relative, and dist/ works wherever it is put)",
    )
    packages_cmd = commands.add_parser(
        "packages", help="build, then write the SCORM 1.2 packages into packages/scorm/"
    )
    packages_cmd.add_argument(
        "--language",
        metavar="LANG",
        help=f"only the packages in this language: {', '.join(LANGUAGES)} (default: all)",
    )
    packages_cmd.add_argument(
        "--chapter",
        metavar="N|NAME",
        help="only this chapter's packages, by its number from 1 or its name (why-order, ...)",
    )
    packages_cmd.add_argument(
        "--scorm-site",
        metavar="URL",
        help="only a thin package instead of the full ones: a few KB that frames the lesson "
        "hosted at URL and relays its quiz score to the LMS",
    )
    packages_cmd.add_argument(
        "--mastery",
        metavar="PERCENT",
        help="the packages' pass mark, 0 to 100 (default 80), in each manifest's "
        "adlcp:masteryscore",
    )
    packages_cmd.add_argument(
        "--attempts",
        metavar="N",
        help="the graded attempts a learner gets, 0 for no limit (the default), in each "
        "manifest's adlcp:datafromlms as attempts=N",
    )
    packages_cmd.add_argument(
        "--sections",
        metavar="NAME,NAME,…",
        help="also a lesson of just these sections (numbered from 1, with their questions, their "
        "'Remember this' lines and the free code cell), as a package in packages/custom/",
    )
    serve_cmd = commands.add_parser("serve", help="build what is missing, then serve dist/")
    serve_cmd.add_argument(
        "--port", type=int, default=8000, help="port on 127.0.0.1 (default 8000)"
    )
    serve_cmd.add_argument(
        "--no-isolation",
        dest="isolated",
        action="store_false",
        help="omit the COOP/COEP headers, like most static hosts (Stop then restarts Python)",
    )
    serve_cmd.add_argument(
        "--csp",
        action="store_true",
        help="send the strict Content-Security-Policy, with the frame-ancestors of hosting/",
    )
    test_cmd = commands.add_parser(
        "test", help="install test needs, build, make the packages, run the whole suite"
    )
    test_cmd.add_argument(
        "--fast",
        action="store_true",
        help="only build the site and run pytest: no ruff, JavaScript tests, tsc or packages "
        "(the tests that read the packages skip); first, before pytest's arguments",
    )
    test_cmd.add_argument(
        "pytest_args", nargs="*", help="passed on to pytest (options too, e.g. -k heatmap -x)"
    )
    bench_cmd = commands.add_parser(
        "bench", help="measure boot, first paint and sliders; write bench/results.json"
    )
    bench_cmd.add_argument(
        "--runs", type=int, default=5, help="cold runs to take the median of (default 5)"
    )
    bench_cmd.add_argument(
        "--only", choices=("network", "training", "lighthouse"),
        help="only the network profile (its figures are printed, not written), "
        "only the training demos, or only Lighthouse's scores (bench/lighthouse.py)",
    )
    commands.add_parser(
        "translations", help="update locale/messages.pot and locale/*.po from the lesson"
    )
    commands.add_parser("check", help="verify dist/ against the pinned hashes")
    commands.add_parser("clean", help="remove dist/ and packages/")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["test"] and not {"-h", "--help"} & set(argv[1:2]):
        # everything after "test" (and --fast) goes to pytest verbatim, options included
        fast = argv[1:2] == ["--fast"]
        return test(argv[1 + fast:], fast=fast)
    args = parser.parse_args(argv)

    if args.command == "build":
        build(
            cdn=args.pyodide_cdn,
            stored_zips=args.stored_zips,
            answer_key=args.answer_key,
            site_url=args.site_url,
        )
    elif args.command == "packages":
        make_packages(
            language=args.language,
            chapter=args.chapter,
            scorm_site=args.scorm_site,
            mastery=args.mastery,
            attempts=args.attempts,
            sections=args.sections,
        )
    elif args.command == "serve":
        serve(args.port, args.isolated, args.csp)
    elif args.command == "test":
        test(args.pytest_args, fast=args.fast)
    elif args.command == "bench":
        bench(["--runs", str(args.runs), *(["--only", args.only] if args.only else [])])
    elif args.command == "translations":
        update_translations()
    elif args.command == "check":
        check()
    elif args.command == "clean":
        shutil.rmtree(DIST, ignore_errors=True)
        shutil.rmtree(PACKAGES, ignore_errors=True)
        log("removed dist/ and packages/")


if __name__ == "__main__":
    main()
