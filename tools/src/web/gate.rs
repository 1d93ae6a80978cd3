//! The gate in front of the web board's server: every request passes it before any route
//! sees it, so that no page from another site can use the board (see "Security" in
//! `docs/web.md`).
//!
//! - **Host** must name this server as the person's browser does: `127.0.0.1`, `localhost`
//!   or `[::1]` with the server's port (and, when the server listens on another address,
//!   any IP address or a name given with `--allow-host`). A page that a rebound DNS name
//!   points here sends its own name and is refused.
//! - **Who sent it**: a browser's `Sec-Fetch-Site` must be `same-origin` or `none` (typed
//!   in the address bar), and an `Origin` must be this server's own.
//! - **What it sends**: a POST's body must be declared `application/json`, which a form or a
//!   "simple" cross-site request cannot declare without a preflight the server never grants.
//! - **The token**: a secret drawn at each launch and printed in the address
//!   (`http://127.0.0.1:PORT/?token=...`, as Jupyter does). The page's address sets it as a
//!   cookie (`SameSite=Strict`, `HttpOnly`) that the page's own requests carry; a script
//!   sends it as the `X-Ply-Token` header or a `token=` query parameter. Every request
//!   without it is refused, whatever its headers claim.

use std::collections::HashMap;
use std::net::IpAddr;

use tiny_http::{Method, Request};

/// A request the gate refuses: the status and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The HTTP status: 403, or 415 for a body not declared as JSON.
    pub status: u16,
    /// What was wrong, for the person reading the answer.
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refused {
    Refused { status, message: message.into() }
}

/// What the gate let through: whether the answer should set the token's cookie (the page
/// was opened with the token in its address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// Set the cookie in the answer.
    pub set_cookie: bool,
}

/// Who may use one server: its port, the names it answers to and its token.
#[derive(Clone, Debug)]
pub struct Gate {
    port: u16,
    token: String,
    /// Names accepted in `Host` besides loopback's.
    hosts: Vec<String>,
    /// Any IP address is accepted in `Host` (the server listens beyond loopback).
    any_address: bool,
}

impl Gate {
    /// The gate of a server on `port` listening on `listen`, answering also to `hosts`, with
    /// a fresh random token.
    pub fn new(port: u16, listen: IpAddr, hosts: &[String]) -> Gate {
        let token: String = (0..4).map(|_| format!("{:016x}", rand::random::<u64>())).collect();
        Gate::with_token(port, listen, hosts, token)
    }

    /// [`Gate::new`] with a given token (tests).
    pub fn with_token(port: u16, listen: IpAddr, hosts: &[String], token: String) -> Gate {
        let hosts = hosts.iter().map(|h| h.to_ascii_lowercase()).collect();
        Gate { port, token, hosts, any_address: !listen.is_loopback() }
    }

    /// The secret every request must carry.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The name of the cookie that carries the token (one per port: cookies are kept per
    /// host, not per port, so two boards on one machine must not share a name).
    pub fn cookie_name(&self) -> String {
        format!("ply-token-{}", self.port)
    }

    /// The `Set-Cookie` header's value that stores the token in the person's browser.
    pub fn cookie(&self) -> String {
        format!("{}={}; Path=/; HttpOnly; SameSite=Strict", self.cookie_name(), self.token)
    }

    /// Lets `request` through or says why not. `query` is the request's query.
    ///
    /// # Errors
    /// [`Refused`] with 403 (a wrong host, another site, no token) or 415 (a POST body not
    /// declared as JSON).
    pub fn check(
        &self,
        request: &Request,
        query: &HashMap<String, String>,
    ) -> Result<Admitted, Refused> {
        let headers: Vec<(String, &str)> = request
            .headers()
            .iter()
            .map(|h| (h.field.as_str().as_str().to_ascii_lowercase(), h.value.as_str()))
            .collect();
        let find = |name: &str| -> Result<Option<&str>, Refused> {
            let mut found = headers.iter().filter(|(k, _)| k == name).map(|(_, v)| *v);
            let first = found.next();
            match found.next() {
                None => Ok(first),
                Some(_) => Err(refuse(403, format!("the request has more than one {name} header"))),
            }
        };
        let host = find("host")?.ok_or_else(|| refuse(403, "the request has no Host header"))?;
        if !self.accepts_host(host) {
            return Err(refuse(
                403,
                format!(
                    "this board answers to 127.0.0.1:{port}, localhost:{port} and [::1]:{port}, \
                     not to the host {host:?}",
                    port = self.port
                ),
            ));
        }
        if let Some(site) = find("sec-fetch-site")? {
            if !site.eq_ignore_ascii_case("same-origin") && !site.eq_ignore_ascii_case("none") {
                return Err(refuse(
                    403,
                    format!("a request from another site ({site}) is refused"),
                ));
            }
        }
        if let Some(origin) = find("origin")? {
            if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
                return Err(refuse(
                    403,
                    format!("a request from the origin {origin:?} is refused"),
                ));
            }
        }
        if request.method() == &Method::Post {
            let content_type = find("content-type")?.unwrap_or("");
            let media = content_type.split(';').next().unwrap_or("").trim();
            if !media.eq_ignore_ascii_case("application/json") {
                return Err(refuse(
                    415,
                    format!(
                        "a POST's body must be declared application/json, not {content_type:?}"
                    ),
                ));
            }
        }
        let cookie = self.cookie_name();
        let from_cookie = headers
            .iter()
            .filter(|(k, _)| k == "cookie")
            .flat_map(|(_, v)| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == cookie && self.is_token(value));
        let from_header = find("x-ply-token")?.is_some_and(|t| self.is_token(t));
        let from_query = query.get("token").is_some_and(|t| self.is_token(t));
        if !(from_cookie || from_header || from_query) {
            return Err(refuse(
                403,
                "this board needs its token: open the address that `serve` printed \
                 (http://127.0.0.1:PORT/?token=...), or send it as the X-Ply-Token header",
            ));
        }
        Ok(Admitted { set_cookie: from_query && !from_cookie })
    }

    /// True if `host` (the `Host` header: a name or address and the port) names this server.
    fn accepts_host(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            // `[::1]` alone has colons but no port.
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host, Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        let name = name.to_ascii_lowercase();
        if matches!(name.as_str(), "127.0.0.1" | "localhost" | "[::1]") {
            return true;
        }
        // An address is safe from DNS rebinding, which needs a name; names must be given.
        let address = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(&name);
        (self.any_address && address.parse::<IpAddr>().is_ok()) || self.hosts.contains(&name)
    }

    /// Compares `text` with the token in time that does not depend on where they differ.
    fn is_token(&self, text: &str) -> bool {
        let (a, b) = (text.as_bytes(), self.token.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(listen: &str, hosts: &[&str]) -> Gate {
        let hosts: Vec<String> = hosts.iter().map(|h| h.to_string()).collect();
        Gate::with_token(8080, listen.parse().unwrap(), &hosts, "secret".into())
    }

    #[test]
    fn hosts_name_this_server_or_are_refused() {
        let local = gate("127.0.0.1", &[]);
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"] {
            assert!(local.accepts_host(ok), "{ok}");
        }
        for bad in [
            "evil.example.com:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "192.168.1.5:8080",
            "localhost.evil.com:8080",
            "[::1]",
            "",
        ] {
            assert!(!local.accepts_host(bad), "{bad}");
        }
        let open = gate("0.0.0.0", &["board.lan"]);
        for ok in ["192.168.1.5:8080", "[fe80::1]:8080", "board.lan:8080", "localhost:8080"] {
            assert!(open.accepts_host(ok), "{ok}");
        }
        assert!(!open.accepts_host("evil.example.com:8080"));
        assert!(!open.accepts_host("board.lan:80"));
    }

    #[test]
    fn tokens_compare_whole() {
        let g = gate("127.0.0.1", &[]);
        assert!(g.is_token("secret"));
        for bad in ["", "secre", "secrets", "Secret"] {
            assert!(!g.is_token(bad), "{bad}");
        }
        let fresh = Gate::new(1, "127.0.0.1".parse().unwrap(), &[]);
        assert_eq!(fresh.token().len(), 64);
        assert_ne!(fresh.token(), Gate::new(1, "127.0.0.1".parse().unwrap(), &[]).token());
        assert_eq!(g.cookie(), "ply-token-8080=secret; Path=/; HttpOnly; SameSite=Strict");
    }
}
