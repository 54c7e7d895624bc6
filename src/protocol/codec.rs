//! How server functions' answers and errors cross the wire: JSON, read
//! from a string as Leptos reads an island's props, so that the browser's
//! wasm holds one JSON decoder for every wire type rather than two (the
//! framework's own `Json` reads answers from bytes: a second copy of the
//! decoding of each type, about 9 KB of brotli on every page).

use leptos::server_fn::codec::Post;
use leptos::server_fn::{Bytes, ContentType, Decodes, Encodes, Format, FormatType};
use serde::de::{DeserializeOwned, Error as _};
use serde::Serialize;

/// JSON read from a string: see the module's comment.
pub struct JsonTextEncoding;

impl ContentType for JsonTextEncoding {
    const CONTENT_TYPE: &'static str = "application/json";
}

impl FormatType for JsonTextEncoding {
    const FORMAT_TYPE: Format = Format::Text;
}

impl<T: Serialize> Encodes<T> for JsonTextEncoding {
    type Error = serde_json::Error;

    fn encode(output: &T) -> Result<Bytes, Self::Error> {
        serde_json::to_vec(output).map(Bytes::from)
    }
}

impl<T: DeserializeOwned> Decodes<T> for JsonTextEncoding {
    type Error = serde_json::Error;

    fn decode(bytes: Bytes) -> Result<T, Self::Error> {
        let text = std::str::from_utf8(&bytes).map_err(serde_json::Error::custom)?;
        serde_json::from_str(text)
    }
}

/// A server function's answer as JSON text, posted as `Json` is: the
/// `output` of every `#[server]` function of the site.
pub type JsonText = Post<JsonTextEncoding>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::AppError;

    #[test]
    fn an_answer_reads_back_and_bad_bytes_are_an_error() {
        let error = AppError::BadPseudonym("trop court".into());
        let bytes = <JsonTextEncoding as Encodes<AppError>>::encode(&error).unwrap();
        let back: AppError = <JsonTextEncoding as Decodes<AppError>>::decode(bytes).unwrap();
        assert_eq!(back.to_string(), error.to_string());
        assert!(<JsonTextEncoding as Decodes<AppError>>::decode(Bytes::from_static(b"\xff\xfe")).is_err());
        assert!(<JsonTextEncoding as Decodes<AppError>>::decode(Bytes::from_static(b"{")).is_err());
    }
}
