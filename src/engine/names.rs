//! Enums of unit variants read from their variants' names, as serde's
//! derive writes them (`"White"`), in a fraction of the derive's code: the
//! browser's build carries a reader for every such type it receives, and
//! the derive's (a visitor for strings, bytes, indices and maps) weighs
//! about 1.2 KB of wasm each, this one a few hundred bytes.

#[doc(hidden)]
pub use serde;
use serde::de::{Deserialize, Deserializer, Error};

/// The index in `names` of the name `deserializer` holds; an error naming
/// the expected ones otherwise, as the derive's.
pub fn variant_index<'de, D: Deserializer<'de>>(
    deserializer: D,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    let name = String::deserialize(deserializer)?;
    names.iter().position(|known| *known == name).ok_or_else(|| D::Error::unknown_variant(&name, names))
}

/// Implements `Deserialize` for an enum of unit variants, read from the
/// names serde's derive of `Serialize` writes. Every variant must be
/// listed, in any order: a variant left out fails the build.
#[macro_export]
macro_rules! deserialize_by_name {
    ($type:ident { $($variant:ident),+ $(,)? }) => {
        impl<'de> $crate::names::serde::Deserialize<'de> for $type {
            fn deserialize<D: $crate::names::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // Exhaustive: a new variant must be added to the list.
                const _: fn($type) = |value| match value {
                    $($type::$variant => {}),+
                };
                const NAMES: &[&str] = &[$(stringify!($variant)),+];
                const VARIANTS: &[$type] = &[$($type::$variant),+];
                $crate::names::variant_index(deserializer, NAMES).map(|i| VARIANTS[i])
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    #[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
    enum Shade {
        Light,
        DarkGreen,
    }
    deserialize_by_name!(Shade { Light, DarkGreen });

    #[test]
    fn reads_what_the_derive_writes_and_names_what_it_expects() {
        for shade in [Shade::Light, Shade::DarkGreen] {
            let text = serde_json::to_string(&shade).unwrap();
            assert_eq!(serde_json::from_str::<Shade>(&text).unwrap(), shade);
        }
        let error = serde_json::from_str::<Shade>("\"Blue\"").unwrap_err().to_string();
        assert!(error.contains("unknown variant `Blue`, expected `Light` or `DarkGreen`"), "{error}");
        assert!(serde_json::from_str::<Shade>("1").is_err());
        assert_eq!(
            serde_json::from_str::<Vec<Shade>>(r#"["DarkGreen","Light"]"#).unwrap(),
            [Shade::DarkGreen, Shade::Light]
        );
    }
}
