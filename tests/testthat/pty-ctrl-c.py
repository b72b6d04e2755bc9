#!/usr/bin/env python3
# Ctrl-C at an interactive R in a terminal (test-progress.R, "after Ctrl-C in
# a terminal ..."; also runnable by hand). Starts R in a pseudo-terminal,
# sends CODE (one line), waits until MARK appears in R's output (a progress
# bar is on screen), sends Ctrl-C (the byte 0x03: the terminal driver turns
# it into SIGINT for R, as a keyboard does), then cat("AFTER\n") and q().
# Prints what a terminal would show at the end (each screen line prefixed by
# "screen| "), the raw bytes R wrote from Ctrl-C to the prompt that followed,
# and a summary line.
#
# Usage: python3 pty-ctrl-c.py R_EXECUTABLE LIBRARY CODE [MARK] [DELAY]
#   LIBRARY: prepended to R's library path (R_LIBS); MARK: text whose
#   appearance starts the countdown (default "MH chain"); DELAY: seconds
#   from MARK to Ctrl-C (default 1).
# POSIX only (pty); the terminal is TERM=xterm, 80 columns, no colours
# needed: only \r, \n, backspace and the CSI sequences cli and R use matter.
import os
import pty
import re
import select
import signal
import struct
import sys
import time

try:
    import fcntl
    import termios
except ImportError:  # not POSIX
    print("summary: unsupported")
    sys.exit(0)

r_exe, lib, code = sys.argv[1], sys.argv[2], sys.argv[3]
mark = (sys.argv[4] if len(sys.argv) > 4 else "MH chain").encode()
delay = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0

pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ)
    env["TERM"] = "xterm"
    env["COLUMNS"] = "80"
    env["R_LIBS"] = lib + (os.pathsep + env["R_LIBS"] if env.get("R_LIBS") else "")
    env.pop("R_TESTS", None)
    env.pop("RSTUDIO", None)
    os.execvpe(r_exe, [r_exe, "--vanilla", "-q", "--no-readline"], env)

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
buf = bytearray()
alive = True


def pump(seconds, until=None, start=0):
    """Reads R's output for `seconds`, or until `until` (bytes) appears after `start`."""
    global alive
    end = time.time() + seconds
    while alive:
        if until is not None and buf.find(until, start) >= 0:
            return True
        left = end - time.time()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], left)
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                alive = False
                break
            buf.extend(data)
    return until is not None and buf.find(until, start) >= 0


pump(30, b"> ")
start = len(buf)
os.write(fd, code.encode() + b"\n")
bar_seen = pump(60, mark, start)
if bar_seen:
    pump(delay)
t_int = len(buf)
os.write(fd, b"\x03")
t0 = time.time()
prompt = pump(30, b"> ", t_int)
seconds = time.time() - t0
t_prompt = len(buf)
os.write(fd, b'cat("AFTER\\n")\n')
after = pump(10, b"AFTER\r\n", t_prompt)
pump(2, b"> ", len(buf) - 2)
os.write(fd, b'q("no")\n')
pump(10)
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
os.waitpid(pid, 0)


def screen(data):
    """The lines a terminal shows after `data` (no scrolling region, no wrap)."""
    text = data.decode("utf-8", "replace")
    lines = [[]]
    row = col = 0

    def put(ch):
        nonlocal col
        line = lines[row]
        while len(line) < col:
            line.append(" ")
        if col < len(line):
            line[col] = ch
        else:
            line.append(ch)
        col += 1

    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            m = re.match(r"\x1b\[([0-9;?]*)([@-~])", text[i:])
            if m:
                params, final = m.group(1), m.group(2)
                n = int(params) if params.isdigit() else None
                line = lines[row]
                if final == "K":
                    if n in (None, 0):
                        del line[col:]
                    elif n == 1:
                        for k in range(min(col + 1, len(line))):
                            line[k] = " "
                    elif n == 2:
                        line.clear()
                elif final == "A":
                    row = max(0, row - (n or 1))
                elif final == "B":
                    row += n or 1
                elif final == "C":
                    col += n or 1
                elif final == "D":
                    col = max(0, col - (n or 1))
                elif final == "G":
                    col = (n or 1) - 1
                while len(lines) <= row:
                    lines.append([])
                i += len(m.group(0))
                continue
            m = re.match(r"\x1b\][^\x07]*(\x07|\x1b\\)", text[i:])  # OSC
            i += len(m.group(0)) if m else 2
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row += 1
            while len(lines) <= row:
                lines.append([])
        elif ch == "\b":
            col = max(0, col - 1)
        elif ch == "\x07":
            pass
        elif ch >= " ":
            put(ch)
        i += 1
    return ["".join(line).rstrip() for line in lines]


lines = screen(bytes(buf))
for line in lines:
    print("screen| " + line)
print("bytes| " + repr(bytes(buf[t_int:t_prompt])))
# What stays on screen between the line of CODE and the next prompt's line.
first = next((k for k, line in enumerate(lines) if line.startswith("> " + code[:20])), None)
last = next((k for k, line in enumerate(lines) if line.startswith('> cat("AFTER')), None)
left = ([line for line in lines[first + 1:last] if line.strip()]
        if first is not None and last is not None else ["?"])
print("summary: bar_seen=%s prompt=%s after=%s seconds=%.2f left_on_screen=%d" %
      (bar_seen, prompt, after, seconds, len(left)))
