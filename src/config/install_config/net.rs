//! IP addresses and CIDRs as the installer reads them (`pkg/ipnet`, Go's `net.ParseCIDR`):
//! parsed, checked to be network addresses, and written back in Go's canonical text form
//! (`IPNet.String()`), which is what ends up in the Infrastructure and the Proxy.

use anyhow::{Result, anyhow, bail};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A parsed CIDR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cidr {
    /// The network address.
    pub(crate) ip: IpAddr,
    /// The prefix length.
    pub(crate) prefix: u8,
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.ip, self.prefix)
    }
}

impl Cidr {
    /// Whether it is an IPv6 network.
    pub(crate) fn is_ipv6(&self) -> bool {
        self.ip.is_ipv6()
    }

    /// Whether `ip` is in the network (`net.IPNet.Contains`; the families must match).
    pub(crate) fn contains(&self, ip: IpAddr) -> bool {
        match (self.ip, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(ip) & mask == u32::from(net)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(ip) & mask == u128::from(net)
            }
            _ => false,
        }
    }

    /// The `n`-th address of the network (go-cidr `cidr.Host`), for the OpenStack VIP defaults.
    pub(crate) fn host(&self, n: u8) -> Result<IpAddr> {
        match self.ip {
            IpAddr::V4(ip) => {
                let size = 1u64 << (32 - u32::from(self.prefix));
                if u64::from(n) >= size {
                    bail!("{self} has no host number {n}");
                }
                Ok(IpAddr::V4(Ipv4Addr::from(u32::from(ip) + u32::from(n))))
            }
            IpAddr::V6(ip) => {
                if self.prefix > 125 {
                    bail!("{self} has no host number {n}");
                }
                Ok(IpAddr::V6(Ipv6Addr::from(u128::from(ip) + u128::from(n))))
            }
        }
    }
}

/// Parses `a.b.c.d/n` or `x::/n`; the address must be the network address, as the installer's
/// validation requires ("invalid network address").
pub(crate) fn parse_cidr(text: &str) -> Result<Cidr> {
    let (ip, prefix) = text
        .split_once('/')
        .ok_or_else(|| anyhow!("{text:?} is not a CIDR (address/prefix)"))?;
    let ip: IpAddr = ip
        .parse()
        .map_err(|_| anyhow!("{text:?} is not a CIDR: {ip:?} is not an IP address"))?;
    let prefix: u8 = prefix
        .parse()
        .map_err(|_| anyhow!("{text:?} is not a CIDR: bad prefix length"))?;
    let network = match ip {
        IpAddr::V4(v4) if prefix <= 32 => {
            let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V4(Ipv4Addr::from(u32::from(v4) & mask))
        }
        IpAddr::V6(v6) if prefix <= 128 => {
            let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
        }
        _ => bail!("{text:?} is not a CIDR: prefix length {prefix} is too long"),
    };
    if network != ip {
        bail!("{text:?}: invalid network address, expecting {network}/{prefix}");
    }
    Ok(Cidr { ip, prefix })
}

/// Checks an IP address (a VIP).
pub(crate) fn parse_ip(text: &str) -> Result<IpAddr> {
    text.parse()
        .map_err(|_| anyhow!("{text:?} is not an IP address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidrs_are_canonical_network_addresses() {
        assert_eq!(
            parse_cidr("10.0.0.0/16").expect("ok").to_string(),
            "10.0.0.0/16"
        );
        assert_eq!(
            parse_cidr("fd00:0:0::/48").expect("ok").to_string(),
            "fd00::/48"
        );
        assert!(parse_cidr("10.0.0.1/16").is_err());
        assert!(parse_cidr("10.0.0.0").is_err());
        assert!(parse_cidr("10.0.0.0/33").is_err());
        assert!(parse_cidr("0.0.0.0/0").is_ok());
    }

    #[test]
    fn host_counts_from_the_network_address() {
        let c = parse_cidr("10.0.0.0/16").expect("ok");
        assert_eq!(c.host(5).expect("ok").to_string(), "10.0.0.5");
        assert!(parse_cidr("10.0.0.4/30").expect("ok").host(5).is_err());
        let v6 = parse_cidr("fd00::/64").expect("ok");
        assert_eq!(v6.host(7).expect("ok").to_string(), "fd00::7");
    }

    #[test]
    fn contains_matches_family_and_prefix() {
        let c = parse_cidr("10.0.0.0/16").expect("ok");
        assert!(c.contains("10.0.255.1".parse().expect("ip")));
        assert!(!c.contains("10.1.0.1".parse().expect("ip")));
        assert!(!c.contains("::1".parse().expect("ip")));
        assert!(
            parse_cidr("0.0.0.0/0")
                .expect("ok")
                .contains("8.8.8.8".parse().expect("ip"))
        );
        let v6 = parse_cidr("2001:db8::/32").expect("ok");
        assert!(v6.contains("2001:db8::5".parse().expect("ip")));
        assert!(!v6.contains("fe80::1".parse().expect("ip")));
    }
}
