//! Fetching URLs on a client's behalf, safely.
//!
//! A server-side request must not become a way into the server's network.
//! Unless `allow_private` is set, the fetcher refuses loopback, private,
//! link-local (cloud metadata), CGNAT, multicast and reserved addresses:
//! literal IPs are checked before connecting, host names are checked after
//! DNS resolution (inside the resolver, so the checked address is the one
//! connected to), and every redirect hop is checked again. Proxies from the
//! environment are ignored (they would bypass the check). Bodies are capped
//! in size and requests in time.

use bytes::BytesMut;
use futures::StreamExt;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// Fetcher settings.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// Allow loopback and private targets (tests, trusted intranets).
    pub allow_private: bool,
    pub max_bytes: usize,
    pub timeout: Duration,
    pub max_redirects: usize,
}

impl Default for FetchConfig {
    fn default() -> Self {
        Self {
            allow_private: false,
            max_bytes: 50 * 1024 * 1024,
            timeout: Duration::from_secs(30),
            max_redirects: 5,
        }
    }
}

/// Why a fetch failed.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("refused to fetch {0}")]
    Refused(String),
    #[error("the response is larger than {0} bytes")]
    TooLarge(usize),
    #[error("the server answered {0}")]
    Status(u16),
    #[error("network error: {0}")]
    Network(String),
}

impl FetchError {
    /// Whether trying again later may succeed.
    pub fn is_transient(&self) -> bool {
        match self {
            FetchError::Network(_) => true,
            FetchError::Status(s) => *s == 429 || *s >= 500,
            _ => false,
        }
    }
}

/// A fetched body.
#[derive(Debug)]
pub struct Fetched {
    pub final_url: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// Whether `ip` may be fetched when private targets are not allowed.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            // NAT64 well-known prefix 64:ff9b::/96 embeds an IPv4 address
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                let v4 =
                    Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
                return is_public_v4(v4);
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || v6 == Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 1))
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let o = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // CGNAT 100.64/10
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking 198.18/15
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
        || o[0] >= 240) // reserved
}

/// Check a URL before requesting it: http(s) only, and no literal private IP.
pub fn check_url(url: &reqwest::Url, allow_private: bool) -> Result<(), FetchError> {
    check_url_with(url, allow_private, &is_public)
}

/// [`check_url`] with the test of which addresses are public given.
fn check_url_with(
    url: &reqwest::Url,
    allow_private: bool,
    is_public: &dyn Fn(IpAddr) -> bool,
) -> Result<(), FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FetchError::Refused(format!(
            "{url}: only http and https URLs are fetched"
        )));
    }
    let host = url
        .host()
        .ok_or_else(|| FetchError::Refused(format!("{url}: no host")))?;
    if allow_private {
        return Ok(());
    }
    let ip = match host {
        url::Host::Ipv4(v4) => Some(IpAddr::V4(v4)),
        url::Host::Ipv6(v6) => Some(IpAddr::V6(v6)),
        url::Host::Domain(_) => None,
    };
    if let Some(ip) = ip {
        if !is_public(ip) {
            return Err(private_refusal(url.as_str(), ip));
        }
    }
    Ok(())
}

fn private_refusal(what: &str, ip: IpAddr) -> FetchError {
    FetchError::Refused(format!(
        "{what}: {ip} is a loopback, private, link-local or reserved address \
         (set fetch.allow_private / ENGRAM_FETCH_ALLOW_PRIVATE to allow)"
    ))
}

/// Looks a host name up (the system's resolver; tests give their own).
type Lookup = Arc<
    dyn Fn(String) -> futures::future::BoxFuture<'static, std::io::Result<Vec<SocketAddr>>>
        + Send
        + Sync,
>;
/// Which addresses count as public ([`is_public`]; tests widen it).
type Public = Arc<dyn Fn(IpAddr) -> bool + Send + Sync>;

/// A resolver that drops non-public addresses (and fails when none are
/// left). The addresses it returns are the ones connected to, so a name
/// that resolves differently the next time (DNS rebinding) gains nothing.
struct GuardedResolver {
    lookup: Lookup,
    public: Public,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let (lookup, is_public) = (self.lookup.clone(), self.public.clone());
        Box::pin(async move {
            let host = name.as_str().to_string();
            let addrs: Vec<SocketAddr> = lookup(host.clone()).await?;
            let public: Vec<SocketAddr> = addrs
                .iter()
                .copied()
                .filter(|a| is_public(a.ip()))
                .collect();
            if public.is_empty() {
                let err: Box<dyn std::error::Error + Send + Sync> = match addrs.first() {
                    Some(a) => Box::new(private_refusal(&host, a.ip())),
                    None => format!("{host} did not resolve").into(),
                };
                return Err(err);
            }
            let it: Addrs = Box::new(public.into_iter());
            Ok(it)
        })
    }
}

/// The guarded HTTP client.
#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    cfg: FetchConfig,
    public: Public,
}

impl Fetcher {
    pub fn new(cfg: FetchConfig) -> Self {
        let lookup: Lookup = Arc::new(|host: String| {
            Box::pin(
                async move { Ok(tokio::net::lookup_host((host.as_str(), 0)).await?.collect()) },
            )
        });
        Self::guarded(cfg, lookup, Arc::new(is_public))
    }

    fn guarded(cfg: FetchConfig, lookup: Lookup, public: Public) -> Self {
        let allow_private = cfg.allow_private;
        let max_redirects = cfg.max_redirects;
        let is_public = public.clone();
        let policy = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= max_redirects {
                return attempt.error(format!("more than {max_redirects} redirects"));
            }
            match check_url_with(attempt.url(), allow_private, &*is_public) {
                Ok(()) => attempt.follow(),
                Err(e) => attempt.error(e.to_string()),
            }
        });
        let mut b = reqwest::Client::builder()
            .redirect(policy)
            .timeout(cfg.timeout)
            .connect_timeout(Duration::from_secs(10))
            .no_proxy()
            .user_agent(concat!(
                "Engram/",
                env!("CARGO_PKG_VERSION"),
                " (+document fetcher)"
            ));
        if !allow_private {
            b = b.dns_resolver(Arc::new(GuardedResolver {
                lookup,
                public: public.clone(),
            }));
        }
        let client = b.build().unwrap_or_else(|_| reqwest::Client::new());
        Self {
            client,
            cfg,
            public,
        }
    }

    /// The guarded HTTP client itself, for protocol clients (S3) that
    /// make their own requests: its resolver refuses private addresses
    /// unless they are allowed.
    pub fn client(&self) -> reqwest::Client {
        self.client.clone()
    }

    /// Whether private addresses may be reached.
    pub fn allows_private(&self) -> bool {
        self.cfg.allow_private
    }

    /// GET `url` within the size and time limits; a status other than
    /// 2xx is an error.
    pub async fn fetch(&self, url: &str) -> Result<Fetched, FetchError> {
        let r = self.get(url, &[]).await?;
        if !(200..300).contains(&r.status) {
            return Err(FetchError::Status(r.status));
        }
        Ok(r.body)
    }

    /// GET `url` with extra request headers (conditional requests, say),
    /// answering any status: a 304 or a 404 is a response, not an error.
    /// Bodies of non-2xx answers are not read.
    pub async fn get(&self, url: &str, headers: &[(&str, &str)]) -> Result<Response, FetchError> {
        let parsed =
            reqwest::Url::parse(url).map_err(|e| FetchError::Refused(format!("{url}: {e}")))?;
        check_url_with(&parsed, self.cfg.allow_private, &*self.public)?;
        let mut req = self.client.get(parsed);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let resp = req.send().await.map_err(classify)?;
        let status = resp.status().as_u16();
        let header = |name: reqwest::header::HeaderName| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let etag = header(reqwest::header::ETAG);
        let last_modified = header(reqwest::header::LAST_MODIFIED);
        let retry_after = header(reqwest::header::RETRY_AFTER);
        let final_url = resp.url().to_string();
        let content_type = header(reqwest::header::CONTENT_TYPE);
        let mut body = BytesMut::new();
        if (200..300).contains(&status) {
            if resp
                .content_length()
                .is_some_and(|n| n as usize > self.cfg.max_bytes)
            {
                return Err(FetchError::TooLarge(self.cfg.max_bytes));
            }
            let mut stream = resp.bytes_stream();
            while let Some(part) = stream.next().await {
                let part = part.map_err(classify)?;
                if body.len() + part.len() > self.cfg.max_bytes {
                    return Err(FetchError::TooLarge(self.cfg.max_bytes));
                }
                body.extend_from_slice(&part);
            }
        }
        Ok(Response {
            status,
            etag,
            last_modified,
            retry_after,
            body: Fetched {
                final_url,
                content_type,
                bytes: body.to_vec(),
            },
        })
    }
}

/// An answer of [`Fetcher::get`].
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub retry_after: Option<String>,
    /// Empty unless the status is 2xx.
    pub body: Fetched,
}

fn classify(e: reqwest::Error) -> FetchError {
    // walk the error chain for our own refusal (from the resolver or redirect policy)
    let mut src: Option<&dyn std::error::Error> = Some(&e);
    while let Some(s) = src {
        let msg = s.to_string();
        if msg.starts_with("refused to fetch") || msg.contains("is a loopback, private") {
            return FetchError::Refused(msg.trim_start_matches("refused to fetch ").to_string());
        }
        if msg.contains("redirects") && e.is_redirect() {
            return FetchError::Refused(msg);
        }
        src = s.source();
    }
    FetchError::Network(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_classes() {
        let blocked = [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00:ec2::254",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "240.0.0.1",
        ];
        for ip in blocked {
            assert!(!is_public(ip.parse().unwrap()), "{ip} should be blocked");
        }
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(ip.parse().unwrap()), "{ip} should be allowed");
        }
    }

    #[test]
    fn urls_are_checked() {
        let u = |s: &str| reqwest::Url::parse(s).unwrap();
        assert!(check_url(&u("http://example.com/x"), false).is_ok());
        assert!(check_url(&u("ftp://example.com/x"), false).is_err());
        assert!(check_url(&u("file:///etc/passwd"), true).is_err());
        assert!(check_url(&u("http://127.0.0.1:8080/"), false).is_err());
        assert!(check_url(&u("http://[::1]/"), false).is_err());
        assert!(check_url(&u("http://169.254.169.254/latest/meta-data"), false).is_err());
        assert!(check_url(&u("http://127.0.0.1:8080/"), true).is_ok());
        // other spellings of loopback and the metadata address: decimal,
        // octal, hex, shortened, IPv4-mapped IPv6 (the URL parser
        // normalises them; the check sees the address)
        for spelt in [
            "http://2130706433/",
            "http://0177.0.0.1/",
            "http://0x7f.0.0.1/",
            "http://127.1/",
            "http://0x7f000001/",
            "http://[::ffff:7f00:1]/",
            "http://[::ffff:169.254.169.254]/",
            "http://2852039166/",
            "http://0251.0376.0251.0376/",
        ] {
            let err = check_url(&u(spelt), false).unwrap_err();
            assert!(matches!(err, FetchError::Refused(_)), "{spelt}: {err:?}");
        }
    }

    #[tokio::test]
    async fn host_names_resolving_to_loopback_are_refused() {
        let f = Fetcher::new(FetchConfig::default());
        let err = f.fetch("http://localhost:9/x").await.unwrap_err();
        assert!(matches!(err, FetchError::Refused(_)), "{err:?}");
        assert!(!err.is_transient());
        let err = f.fetch("http://127.0.0.1:9/x").await.unwrap_err();
        assert!(err.to_string().contains("loopback"), "{err}");
    }

    /// A tiny HTTP server on `addr`: `/ok` answers "hello", `/to/<url>`
    /// redirects to `<url>`, anything else "secret"; counts requests.
    async fn server(addr: SocketAddr) -> (SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let bound = listener.local_addr().unwrap();
        let hits = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let h = hits.clone();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                h.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    let n = sock.read(&mut buf).await.unwrap_or(0);
                    let req = String::from_utf8_lossy(&buf[..n]).to_string();
                    let path = req.split_whitespace().nth(1).unwrap_or("/").to_string();
                    let resp = if path == "/ok" {
                        "HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello"
                            .to_string()
                    } else if let Some(to) = path.strip_prefix("/to/") {
                        format!("HTTP/1.1 302 Found\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                    } else {
                        "HTTP/1.1 200 OK\r\ncontent-length: 6\r\nconnection: close\r\n\r\nsecret"
                            .to_string()
                    };
                    let _ = sock.write_all(resp.as_bytes()).await;
                });
            }
        });
        (bound, hits)
    }

    /// Redirects to private targets and DNS rebinding, end to end over
    /// real sockets. In this test's world 127.0.0.2 is "public" (a server
    /// on the internet) and 127.0.0.1 is private (the server's own
    /// network, holding a secret); names resolve as the test says.
    #[tokio::test]
    async fn redirects_and_rebinding_never_reach_a_private_address() {
        let (public_addr, _) = server("127.0.0.2:0".parse().unwrap()).await;
        let port = public_addr.port();
        let (_, private_hits) = server(SocketAddr::from(([127, 0, 0, 1], port))).await;
        let flips = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let lookup: Lookup = {
            let flips = flips.clone();
            Arc::new(move |host: String| {
                let n = flips.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let ip = |last: u8| SocketAddr::from(([127, 0, 0, last], 0));
                let addrs = match host.as_str() {
                    "public.test" => vec![ip(2)],
                    "internal.test" => vec![ip(1)],
                    // public on one lookup, private on the next
                    "rebind.test" => vec![if n.is_multiple_of(2) { ip(2) } else { ip(1) }],
                    // both at once: only the public one may be used
                    "both.test" => vec![ip(1), ip(2)],
                    _ => vec![],
                };
                Box::pin(async move { Ok(addrs) })
            })
        };
        let fetcher = || {
            Fetcher::guarded(
                FetchConfig::default(),
                lookup.clone(),
                Arc::new(|ip: IpAddr| ip == IpAddr::from([127, 0, 0, 2]) || is_public(ip)),
            )
        };
        let url = |host: &str, path: &str| format!("http://{host}:{port}{path}");
        let ok = fetcher().fetch(&url("public.test", "/ok")).await.unwrap();
        assert_eq!(ok.bytes, b"hello");

        let private = [
            format!("http://127.0.0.1:{port}/secret"),
            url("internal.test", "/secret"),
            format!("http://[::ffff:127.0.0.1]:{port}/secret"),
            format!("http://2130706433:{port}/secret"),
        ];
        for target in &private {
            // directly, and through a redirect from the public server
            let err = fetcher().fetch(target).await.unwrap_err();
            assert!(matches!(err, FetchError::Refused(_)), "{target}: {err:?}");
            let hop = url("public.test", &format!("/to/{target}"));
            let err = fetcher().fetch(&hop).await.unwrap_err();
            assert!(!err.is_transient(), "{hop}: {err:?}");
            assert!(
                err.to_string().contains("private") || err.to_string().contains("refused"),
                "{hop}: {err}"
            );
        }
        // a name that rebinds between lookups: each fetch reaches the
        // public server or is refused, never the private one
        let mut reached = 0;
        for _ in 0..8 {
            match fetcher().fetch(&url("rebind.test", "/ok")).await {
                Ok(f) => {
                    assert_eq!(f.bytes, b"hello");
                    reached += 1;
                }
                Err(e) => assert!(matches!(e, FetchError::Refused(_)), "{e:?}"),
            }
        }
        assert!(reached > 0);
        let both = fetcher().fetch(&url("both.test", "/ok")).await.unwrap();
        assert_eq!(both.bytes, b"hello");
        assert_eq!(
            private_hits.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "the private server was reached"
        );
    }
}
