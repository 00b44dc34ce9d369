//! Engram's OpenAPI 3.1 description, generated from the code: the route
//! table ([`crate::routes::documented`]) registers each handler from its
//! `#[utoipa::path]` annotation, and the wire types derive their schemas,
//! so what is served at `/v3/openapi` and `/v4/openapi` is what the server
//! does. This module adds what no handler says: the title, the bearer
//! security scheme and the tags.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder};

/// The description without paths (the router adds them).
pub(crate) fn base() -> OpenApi {
    let bearer = SecurityScheme::Http(
        HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "An Engram API key: `Authorization: Bearer <key>` (keys start with `sm_`).",
            ))
            .build(),
    );
    let tag = |name: &str, about: &str| {
        TagBuilder::new()
            .name(name)
            .description(Some(about))
            .build()
    };
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Engram")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "A self-hostable memory and retrieval service, wire-compatible with the \
                     Supermemory v3/v4 API. Errors answer `{error, details?, type}`; timestamps \
                     are RFC 3339.",
                ))
                .build(),
        )
        .components(Some(
            ComponentsBuilder::new()
                .security_scheme("bearer", bearer)
                .build(),
        ))
        .tags(Some(vec![
            tag(
                "documents",
                "Content in: text, URLs, files, conversations; processed in the background.",
            ),
            tag(
                "search",
                "Hybrid search over documents (v3) and memories (v4).",
            ),
            tag(
                "memories",
                "Atomic facts with versions, relations and lifetimes.",
            ),
            tag(
                "profile",
                "What is known about a container tag, static and dynamic.",
            ),
            tag(
                "graph",
                "Memories, documents and entities as one graph (beyond the public API).",
            ),
        ]))
        .build()
}

/// The full description: [`base`] with every documented route.
pub fn document() -> OpenApi {
    crate::routes::documented(0).into_openapi()
}
