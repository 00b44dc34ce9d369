//! robots.txt (RFC 9309): the group for our user agent (or `*`), allow and
//! disallow rules with `*` and `$` (the longest match wins, allow on a
//! tie), `Crawl-delay`, and `Sitemap` lines.

/// The user agent token Engram's crawler answers to.
pub const AGENT: &str = "engram";

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Robots {
    rules: Vec<(bool, String)>,
    pub crawl_delay: Option<f64>,
    pub sitemaps: Vec<String>,
}

/// A group of robots.txt: its user agents, rules and crawl delay.
type Group = (Vec<String>, Vec<(bool, String)>, Option<f64>);

fn matches(pattern: &str, path: &str) -> Option<usize> {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    // glob with `*`: greedy-enough backtracking over the parts
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut pos = 0;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            if !path.starts_with(part) {
                return None;
            }
            pos = part.len();
        } else if i == parts.len() - 1 && anchored {
            if path.len() < pos + part.len() || !path.ends_with(part) {
                return None;
            }
            pos = path.len();
        } else {
            let at = path[pos..].find(part)?;
            pos += at + part.len();
        }
    }
    if anchored && pos != path.len() {
        return None;
    }
    Some(pattern.len())
}

impl Robots {
    pub fn parse(text: &str) -> Robots {
        // groups: (agents, rules, delay)
        let mut groups: Vec<Group> = Vec::new();
        let mut sitemaps = Vec::new();
        let mut in_agents = false;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((k, v)) = line.split_once(':') else {
                continue;
            };
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            match k.as_str() {
                "user-agent" => {
                    if !in_agents || groups.is_empty() {
                        groups.push((Vec::new(), Vec::new(), None));
                    }
                    in_agents = true;
                    if let Some(g) = groups.last_mut() {
                        g.0.push(v.to_ascii_lowercase());
                    }
                }
                "allow" | "disallow" => {
                    in_agents = false;
                    if let Some(g) = groups.last_mut() {
                        if !v.is_empty() {
                            g.1.push((k == "allow", v.to_string()));
                        }
                    }
                }
                "crawl-delay" => {
                    in_agents = false;
                    if let Some(g) = groups.last_mut() {
                        g.2 = v.parse().ok();
                    }
                }
                "sitemap" => sitemaps.push(v.to_string()),
                _ => {}
            }
        }
        let ours = groups
            .iter()
            .find(|g| g.0.iter().any(|a| a != "*" && AGENT.contains(a.as_str())))
            .or_else(|| groups.iter().find(|g| g.0.iter().any(|a| a == "*")));
        match ours {
            Some((_, rules, delay)) => Robots {
                rules: rules.clone(),
                crawl_delay: *delay,
                sitemaps,
            },
            None => Robots {
                sitemaps,
                ..Default::default()
            },
        }
    }

    /// Whether `path` (with its query) may be crawled.
    pub fn allowed(&self, path: &str) -> bool {
        let mut best: Option<(usize, bool)> = None;
        for (allow, pattern) in &self.rules {
            if let Some(len) = matches(pattern, path) {
                best = match best {
                    Some((l, a)) if l > len || (l == len && a) => Some((l, a)),
                    _ => Some((len, *allow)),
                };
            }
        }
        best.is_none_or(|(_, allow)| allow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(robots: &str, cases: &[(&str, bool)]) {
        let r = Robots::parse(robots);
        for (path, want) in cases {
            assert_eq!(r.allowed(path), *want, "{path} in\n{robots}");
        }
    }

    #[test]
    fn rules() {
        check(
            "User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n",
            &[
                ("/", true),
                ("/private", false),
                ("/private/x", false),
                ("/private/open/y", true),
                ("/a/b.pdf", false),
                ("/a/b.pdf?x=1", true),
                ("/docs", true),
            ],
        );
        // our own group wins over `*`
        check(
            "User-agent: *\nDisallow: /\n\nUser-agent: Engram\nDisallow: /secret\n",
            &[("/", true), ("/secret/a", false)],
        );
        // an empty disallow allows everything; unknown lines are ignored
        check("User-agent: *\nDisallow:\nFoo: bar\n", &[("/x", true)]);
        let r = Robots::parse(
            "Sitemap: https://s.example/sitemap.xml\nUser-agent: a\nUser-agent: *\nCrawl-delay: 2\nDisallow: /x\n",
        );
        assert_eq!(r.crawl_delay, Some(2.0));
        assert_eq!(r.sitemaps, ["https://s.example/sitemap.xml"]);
        assert!(!r.allowed("/x/1"));
    }
}
