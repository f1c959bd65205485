"""tests/lib/dashboard_click.py CHROMIUM URL TASK_ID USERDIR: load the
dashboard at URL in headless Chromium, driven over its DevTools pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each a JSON
message ended by a NUL byte), and press the cancel button of TASK_ID in
its running tasks table, as an operator would.  Prints the page's address
once the form was sent and the button is gone; exits non-zero when there is
no such button.  Standard library only (run with python3 -I -S)."""
import json, os, subprocess, sys, time
chromium, url, task, userdir = sys.argv[1:5]
r3, w3 = os.pipe()  # we write commands: Chromium reads fd 3
r4, w4 = os.pipe()  # Chromium writes replies on fd 4
def child():
    # through fresh numbers: r3 or w4 may be 3 or 4 themselves
    a, b = os.dup(r3), os.dup(w4)
    os.dup2(a, 3)
    os.dup2(b, 4)
p = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                      "--remote-debugging-pipe", "--user-data-dir=" + userdir, "about:blank"],
                     close_fds=False, preexec_fn=child, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(r3); os.close(w4)
buf = b""
n = 0
def send(method, params=None, session=None):
    global n
    n += 1
    m = {"id": n, "method": method, "params": params or {}}
    if session:
        m["sessionId"] = session
    os.write(w3, json.dumps(m).encode() + b"\0")
    return n
def recv():
    global buf
    while b"\0" not in buf:
        chunk = os.read(r4, 65536)
        if not chunk:
            raise SystemExit("chromium closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)
def call(method, params=None, session=None):
    i = send(method, params, session)
    while True:
        m = recv()
        if m.get("id") == i:
            if "error" in m:
                raise SystemExit("%s: %s" % (method, m["error"]))
            return m.get("result", {})
def evaluate(expr, session):
    return call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session)["result"].get("value")
try:
    target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    call("Page.enable", session=s)
    call("Page.navigate", {"url": url}, s)
    btn = "document.querySelector('#running input[name=target][value=\"%s\"]')" % task
    for _ in range(100):
        if evaluate(btn + " !== null", s):
            break
        time.sleep(0.1)
    else:
        raise SystemExit("no cancel button for task %s on the page" % task)
    evaluate(btn + ".form.querySelector('button').click()", s)
    for _ in range(100):
        time.sleep(0.1)
        if evaluate("document.readyState === 'complete' && " + btn + " === null", s):
            break
    print(evaluate("location.href", s))
finally:
    p.kill()
    p.wait()
