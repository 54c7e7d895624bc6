//! Who is asking: the client's address and whether it came over HTTPS. Behind
//! a reverse proxy every connection comes from the proxy, so the proxy's
//! `X-Forwarded-For` / `X-Forwarded-Proto` or `Forwarded` (RFC 7239) headers
//! are read — but only when the connection comes from a proxy the operator
//! trusts (`DAMES_TRUSTED_PROXIES`); from anyone else they are ignored, or a
//! client could claim any address and dodge the rate limits.
//!
//! `X-Forwarded-For` wins when both are present: nginx and Caddy set it and
//! pass a client's own `Forwarded` header through untouched, so a
//! `Forwarded` next to it may be the client's invention.

use axum::extract::{ConnectInfo, Request};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

/// The proxies whose forwarding headers are believed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Reads `10.0.0.0/8, 127.0.0.1, ::1`: addresses or CIDR ranges,
    /// separated by commas. An empty text trusts nobody.
    pub fn parse(text: &str) -> Result<TrustedProxies, String> {
        let mut nets = Vec::new();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let net = IpNet::from_str(item)
                .or_else(|_| IpAddr::from_str(item).map(IpNet::from))
                .map_err(|_| format!("{item:?} is neither an address nor a CIDR range"))?;
            nets.push(net);
        }
        Ok(TrustedProxies(nets))
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|net| net.contains(&ip))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The client of a request, as far as the server can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    pub address: IpAddr,
    /// The client's own connection is HTTPS (a TLS-terminating trusted
    /// proxy said so): the player cookie is then `Secure`.
    pub https: bool,
}

/// The client behind a connection from `peer` that sent `headers`.
pub fn client_of(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> Client {
    let peer = canonical(peer);
    if !trusted.contains(peer) {
        return Client { address: peer, https: false };
    }
    let hops = forwarded_hops(headers);
    // Walking back from the nearest hop, the first address that is not a
    // trusted proxy is the client; everything left of it could be forged.
    // The scheme, though, is the trusted proxy's word about the client's
    // connection, whichever hop turns out to be the client.
    let proto_https = hops.iter().any(|h| h.https);
    let mut client = Client { address: peer, https: proto_https };
    for hop in hops.iter().rev() {
        let Some(address) = hop.address else {
            // An obfuscated or unreadable hop: nothing beyond it can be
            // placed, so the last known proxy stands for the client.
            break;
        };
        client.address = address;
        if !trusted.contains(address) {
            break;
        }
    }
    client
}

/// One hop of the forwarding chain, oldest first.
#[derive(Debug, PartialEq, Eq)]
struct Hop {
    address: Option<IpAddr>,
    https: bool,
}

/// The hops from `X-Forwarded-For` (with `X-Forwarded-Proto` saying the
/// client's scheme) if present, else from `Forwarded`.
fn forwarded_hops(headers: &HeaderMap) -> Vec<Hop> {
    let values = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_string())
            .collect()
    };
    let forwarded_for = values("x-forwarded-for");
    let forwarded = values("forwarded");
    if forwarded_for.is_empty() && !forwarded.is_empty() {
        return forwarded.iter().map(|element| forwarded_element(element)).collect();
    }
    let proto_https = values("x-forwarded-proto").first().is_some_and(|p| p.eq_ignore_ascii_case("https"));
    let mut hops: Vec<Hop> =
        values("x-forwarded-for").iter().map(|item| Hop { address: parse_node(item), https: false }).collect();
    // X-Forwarded-Proto is set by the proxy that took the client's own
    // connection: it describes the client's hop.
    if let Some(first) = hops.first_mut() {
        first.https = proto_https;
    }
    if hops.is_empty() && proto_https {
        // A proxy that says only the scheme: its own connection is the
        // client's hop.
        hops.push(Hop { address: None, https: true });
    }
    hops
}

/// `for=192.0.2.60;proto=https;by=203.0.113.43`
fn forwarded_element(element: &str) -> Hop {
    let mut hop = Hop { address: None, https: false };
    for pair in element.split(';') {
        let Some((key, value)) = pair.split_once('=') else { continue };
        let value = value.trim().trim_matches('"');
        match key.trim().to_ascii_lowercase().as_str() {
            "for" => hop.address = parse_node(value),
            "proto" => hop.https = value.eq_ignore_ascii_case("https"),
            _ => {}
        }
    }
    hop
}

/// `192.0.2.60`, `192.0.2.60:4711`, `[2001:db8::1]:4711`, `2001:db8::1`;
/// `unknown` and obfuscated `_names` are `None`.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(ip) = IpAddr::from_str(node) {
        return Some(canonical(ip));
    }
    if let Ok(sock) = SocketAddr::from_str(node) {
        return Some(canonical(sock.ip()));
    }
    let bracketed = node.strip_prefix('[')?;
    let inside = bracketed.split(']').next()?;
    IpAddr::from_str(inside).ok().map(canonical)
}

/// An IPv4 client seen through an IPv6 socket (`::ffff:192.0.2.1`) is the
/// IPv4 client.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// Middleware: works out the [`Client`] of every request once and puts it
/// in the request's extensions, where handlers and server functions read
/// it. A request without connection info (an in-process test) gets none.
pub async fn identify_client(trusted: TrustedProxies, mut request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    if let Some(peer) = peer {
        let client = client_of(peer, request.headers(), &trusted);
        request.extensions_mut().insert(client);
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_static(value));
        }
        h
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn trusted_proxies_are_addresses_and_ranges() {
        let t = TrustedProxies::parse(" 10.0.0.0/8, 127.0.0.1 ,::1").unwrap();
        assert!(t.contains(ip("10.1.2.3")));
        assert!(t.contains(ip("127.0.0.1")));
        assert!(t.contains(ip("::1")));
        assert!(t.contains(ip("::ffff:10.9.9.9")), "an IPv4-mapped address is the IPv4 one");
        assert!(!t.contains(ip("11.0.0.1")));
        assert!(TrustedProxies::parse("").unwrap().is_empty());
        let err = TrustedProxies::parse("10.0.0.0/8, proxy.local").unwrap_err();
        assert!(err.contains("proxy.local"), "{err}");
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
    }

    #[test]
    fn headers_from_an_untrusted_peer_are_ignored() {
        let t = TrustedProxies::parse("10.0.0.1").unwrap();
        let h = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("forwarded", "for=5.6.7.8;proto=https"),
            ("x-forwarded-proto", "https"),
        ]);
        assert_eq!(client_of(ip("203.0.113.9"), &h, &t), Client { address: ip("203.0.113.9"), https: false });
        assert_eq!(client_of(ip("203.0.113.9"), &h, &TrustedProxies::default()).address, ip("203.0.113.9"));
    }

    #[test]
    fn x_forwarded_for_gives_the_rightmost_untrusted_address() {
        let t = TrustedProxies::parse("10.0.0.0/8").unwrap();
        // The client forged the first entry; the proxy appended the real one.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.7, 10.0.0.5"), ("x-forwarded-proto", "https")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t).address, ip("198.51.100.7"));
        let h = headers(&[("x-forwarded-for", "198.51.100.7"), ("x-forwarded-for", "10.0.0.9")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t).address, ip("198.51.100.7"), "repeated headers are one list");
        // Nothing forwarded: the proxy itself is the client.
        assert_eq!(client_of(ip("10.0.0.1"), &HeaderMap::new(), &t).address, ip("10.0.0.1"));
    }

    #[test]
    fn forwarded_serves_when_alone_and_carries_the_scheme() {
        let t = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let h = headers(&[("forwarded", "for=\"[2001:db8:cafe::17]:4711\";proto=https, for=10.0.0.7;proto=http")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t), Client { address: ip("2001:db8:cafe::17"), https: true });
        // Beside X-Forwarded-For (which nginx and Caddy set, passing the
        // client's own Forwarded through), a Forwarded header is ignored.
        let h = headers(&[("forwarded", "for=6.6.6.6"), ("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t).address, ip("198.51.100.7"));
        let h = headers(&[("Forwarded", "For=192.0.2.60:8080;Proto=http")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t), Client { address: ip("192.0.2.60"), https: false });
        // An obfuscated hop: the nearest proxy stands for the client.
        let h = headers(&[("forwarded", "for=_hidden, for=10.0.0.8")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t).address, ip("10.0.0.8"));
        let h = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(client_of(ip("10.0.0.1"), &h, &t).address, ip("10.0.0.1"));
    }

    #[test]
    fn a_proxy_that_terminates_tls_makes_the_client_https() {
        let t = TrustedProxies::parse("127.0.0.1").unwrap();
        let h = headers(&[("x-forwarded-for", "198.51.100.7"), ("x-forwarded-proto", "https")]);
        assert!(client_of(ip("127.0.0.1"), &h, &t).https);
        let h = headers(&[("x-forwarded-for", "198.51.100.7"), ("x-forwarded-proto", "http")]);
        assert!(!client_of(ip("127.0.0.1"), &h, &t).https);
        // A client that writes its own X-Forwarded-For still gets a Secure
        // cookie over HTTPS: the scheme is the proxy's word.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, 198.51.100.7"), ("x-forwarded-proto", "https")]);
        assert_eq!(client_of(ip("127.0.0.1"), &h, &t), Client { address: ip("198.51.100.7"), https: true });
        let h = headers(&[("forwarded", "for=198.51.100.7;proto=https")]);
        assert!(client_of(ip("127.0.0.1"), &h, &t).https);
        let h = headers(&[("x-forwarded-proto", "https")]);
        assert_eq!(client_of(ip("127.0.0.1"), &h, &t), Client { address: ip("127.0.0.1"), https: true });
        assert!(!client_of(ip("192.0.2.1"), &h, &t).https, "not from an untrusted peer");
    }
}
