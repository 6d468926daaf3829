# Drives a program on a pseudo-terminal, as a person at a keyboard would: waits for each
# expected text, then types the answer. Prints the whole transcript, then exits with the
# program's exit status (or 124 when an expected text did not come within the bound).
# Usage: pty-session.py STEPS_JSON PROGRAM ARGS...   STEPS_JSON: [[regex, text to type], ...]
import json, os, pty, re, select, sys, time

steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])

transcript = b''
def read_until(pattern, bound_s):
    global transcript
    deadline = time.monotonic() + bound_s
    while not re.search(pattern.encode(), transcript):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return False
            if not chunk:
                return False
            transcript += chunk
    return True

status = None
for pattern, text in steps:
    if not read_until(pattern, 60):
        status = 124
        break
    os.write(fd, text.encode())
# The rest of the output, until the program closes the terminal (bounded), then its status.
if status is None:
    read_until(r'(?!)', 60)
else:
    os.kill(pid, 9)
try:
    _, code = os.waitpid(pid, 0)
except ChildProcessError:
    code = 0
sys.stdout.write(transcript.decode('utf8', 'replace'))
sys.exit(status if status is not None else os.waitstatus_to_exitcode(code))
