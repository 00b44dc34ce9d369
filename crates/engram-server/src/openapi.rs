//! Engram's OpenAPI 3.1 description, generated from the code: the route
//! table ([`crate::routes::documented`]) registers each handler from its
//! `#[utoipa::path]` annotation, and the wire types derive their schemas,
//! so what is served at `/v3/openapi` and `/v4/openapi` is what the server
//! does. This module adds what no handler says: the title, the bearer
//! security scheme and the tags.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder, RefOr};

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
    let mut doc = crate::routes::documented(0).into_openapi();
    every_operation_can_refuse_input(&mut doc);
    bodies_may_be_left_out(&mut doc);
    doc
}

/// The operations that read an empty body as "the defaults".
const OPTIONAL_BODIES: &[&str] = &[
    "listDocuments",
    "listConnections",
    "deleteConnection",
    "listConnectionDocuments",
    "importConnections",
];

/// Marks the request bodies of [`OPTIONAL_BODIES`] as optional (utoipa
/// marks every typed body required).
fn bodies_may_be_left_out(doc: &mut OpenApi) {
    for item in doc.paths.paths.values_mut() {
        for op in [
            &mut item.get,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
        {
            let optional = op
                .operation_id
                .as_deref()
                .is_some_and(|id| OPTIONAL_BODIES.contains(&id));
            if let (true, Some(RefOr::T(body))) = (optional, op.request_body.as_mut()) {
                body.required = Some(utoipa::openapi::Required::False);
            }
        }
    }
}

/// Any operation can answer 400: a query string or path the server cannot
/// read is refused before the handler runs, with the same JSON error body.
/// The operations whose handler never refuses anything itself did not say
/// so; this says it for them, with the body the others document.
fn every_operation_can_refuse_input(doc: &mut OpenApi) {
    fn ops(
        item: &mut utoipa::openapi::PathItem,
    ) -> Vec<&mut std::collections::BTreeMap<String, RefOr<utoipa::openapi::Response>>> {
        [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .filter_map(|o| o.as_mut())
        .map(|o| &mut o.responses.responses)
        .collect()
    }
    let Some(refused) = doc
        .paths
        .paths
        .values_mut()
        .flat_map(ops)
        .find_map(|r| r.get("400").cloned())
    else {
        return;
    };
    for responses in doc.paths.paths.values_mut().flat_map(ops) {
        responses
            .entry("400".into())
            .or_insert_with(|| refused.clone());
    }
}
