#!/usr/bin/env python3
"""Prints the useful part of a crash report: the exception, the termination
reason, Swift runtime messages and the crashed thread's frames.

Reads Apple .ips (JSON) and .crash (text) reports and Swift backtraces from
Linux. Usage: crash-summary.py REPORT [--frames N]
"""

import json
import re
import sys

KEY_LINES = re.compile(
    r"^(Exception Type|Exception Codes|Exception Reason|Termination Reason|Crashed Thread"
    r"|Application Specific Information|Fatal error|Program crashed|.*\bfatal error\b|"
    r"Assertion failed|Precondition failed)",
    re.IGNORECASE,
)
CRASHED_THREAD = re.compile(r"^Thread \d+( name: .*)? ?[Cc]rashed", re.IGNORECASE)


def summarize_ips(text, max_frames):
    header_end = text.find("\n")
    payload = json.loads(text[header_end + 1:])
    exception = payload.get("exception", {})
    print("Exception:", exception.get("type", "?"), exception.get("signal", ""), exception.get("subtype", ""))
    termination = payload.get("termination", {})
    if termination:
        print("Termination:", termination.get("namespace", ""), termination.get("indicator", ""),
              " ".join(termination.get("reasons", [])))
    asi = payload.get("asi")
    if asi:
        for owner, messages in asi.items():
            print("Application Specific Information (%s): %s" % (owner, " ".join(messages)))
    images = payload.get("usedImages", [])
    faulting = payload.get("faultingThread", 0)
    threads = payload.get("threads", [])
    if faulting >= len(threads):
        print("No crashed thread in the report.")
        return
    thread = threads[faulting]
    print("Crashed thread %d%s:" % (faulting, (" (" + thread["name"] + ")") if thread.get("name") else ""))
    for index, frame in enumerate(thread.get("frames", [])[:max_frames]):
        image_index = frame.get("imageIndex", -1)
        image = images[image_index].get("name", "?") if 0 <= image_index < len(images) else "?"
        symbol = frame.get("symbol", "0x%x" % frame.get("imageOffset", 0))
        location = ""
        if frame.get("sourceFile"):
            location = " (%s:%s)" % (frame["sourceFile"], frame.get("sourceLine", "?"))
        print("  %2d %-28s %s%s" % (index, image, symbol, location))


def summarize_text(text, max_frames):
    lines = text.splitlines()
    for line in lines:
        if KEY_LINES.match(line.strip()):
            print(line.strip())
    for start, line in enumerate(lines):
        if CRASHED_THREAD.match(line.strip()):
            print(line.strip())
            shown = 0
            for frame in lines[start + 1:]:
                if not frame.strip():
                    if shown:
                        break
                    continue
                print("  " + frame.strip())
                shown += 1
                if shown >= max_frames:
                    break
            return
    print("No crashed thread found; look for 'Thread N Crashed' or a 'Fatal error' line by hand.")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    max_frames = 25
    if "--frames" in argv:
        max_frames = int(argv[argv.index("--frames") + 1])
    with open(argv[1], encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    try:
        summarize_ips(text, max_frames)
    except (ValueError, KeyError, TypeError, AttributeError):
        summarize_text(text, max_frames)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
