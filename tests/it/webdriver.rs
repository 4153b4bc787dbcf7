//! A small WebDriver client (the W3C protocol over HTTP/1.1, std only) driving real headless
//! Chromium through Debian's `chromedriver`, for tests that press keys and click in a page.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A browser session; the browser and its driver end when it is dropped.
pub(crate) struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile, or `None` when
    /// either is missing (CI has both: `.ci/run` installs them).
    pub(crate) fn start() -> Option<Browser> {
        if !crate::util::have("chromedriver") || !crate::util::have("chromium") {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must have chromium and chromedriver (.ci/run installs them)"
            );
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().unwrap();
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while b.request("GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-background-networking", "--no-first-run",
                         "--window-size=1200,900",
                         format!("--user-data-dir={}", b._profile.path().display())],
            },
        }}});
        let v = b
            .request("POST", "/session", Some(caps))
            .expect("a session");
        b.session = v["sessionId"].as_str().expect("a session id").to_string();
        Some(b)
    }

    /// Makes the window `width` x `height` pixels.
    pub(crate) fn set_window(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "window/rect",
            json!({ "width": width, "height": height }),
        );
    }

    /// Opens `url`.
    pub(crate) fn open(&self, url: &str) {
        self.command("POST", "url", json!({ "url": url }));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and gives what it returns.
    pub(crate) fn eval(&self, script: &str) -> Value {
        self.command(
            "POST",
            "execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    /// Presses and releases each key of `keys` in turn.
    pub(crate) fn press(&self, keys: &str) {
        let mut actions = Vec::new();
        for k in keys.chars() {
            actions.push(json!({"type": "keyDown", "value": k.to_string()}));
            actions.push(json!({"type": "keyUp", "value": k.to_string()}));
        }
        self.command(
            "POST",
            "actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
        );
    }

    /// Clicks the first element matching the CSS `selector`.
    pub(crate) fn click(&self, selector: &str) {
        let found = self.command(
            "POST",
            "element",
            json!({"using": "css selector", "value": selector}),
        );
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {selector}: {found}"))
            .to_string();
        self.command("POST", &format!("element/{id}/click"), json!({}));
    }

    /// Evaluates `script` until it returns true, for at most `timeout`.
    pub(crate) fn wait_for(&self, script: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if self.eval(script) == Value::Bool(true) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The browser's console messages so far (`level: text`).
    pub(crate) fn console(&self) -> Vec<String> {
        let v = self.command("POST", "se/log", json!({"type": "browser"}));
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|e| format!("{}: {}", e["level"], e["message"]))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn command(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}/{path}", self.session);
        match self.request(method, &path, Some(body)) {
            Ok(v) => v,
            Err(e) => panic!("webdriver {method} {path}: {e}"),
        }
    }

    /// One HTTP request to the driver: the `value` of its JSON answer, or the error.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )
        .map_err(|e| e.to_string())?;
        // Read the head, then as many bytes as it says (the driver may keep the connection).
        let mut answer = Vec::new();
        let mut buf = [0u8; 64 * 1024];
        let head_end = loop {
            if let Some(i) = find(&answer, b"\r\n\r\n") {
                break i + 4;
            }
            let n = read_some(&mut stream, &mut buf)?;
            if n == 0 {
                return Err("the driver closed the connection".into());
            }
            answer.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&answer[..head_end]).to_string();
        let length = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())
                    .flatten()
            })
            .ok_or_else(|| format!("no Content-Length: {head}"))?;
        while answer.len() < head_end + length {
            let n = read_some(&mut stream, &mut buf)?;
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buf[..n]);
        }
        let body = String::from_utf8_lossy(&answer[head_end..]).to_string();
        let v: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
        if !head.starts_with("HTTP/1.1 200") {
            return Err(format!("{head}\n{body}"));
        }
        Ok(v["value"].clone())
    }
}

/// One read from the driver, again when a signal interrupted it (a loaded machine's
/// processes get many).
fn read_some(stream: &mut TcpStream, buf: &mut [u8]) -> Result<usize, String> {
    loop {
        match stream.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r.map_err(|e| e.to_string()),
        }
    }
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.request("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
