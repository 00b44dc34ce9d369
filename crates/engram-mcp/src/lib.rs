//! Engram as a Model Context Protocol server: the tools an agent uses to
//! remember, recall and forget, and to read Engram's own documentation.
//!
//! Every memory tool is a client of the HTTP API (through `engram-client`),
//! so what a tool may do is exactly what its key may do: scoping, limits
//! and analytics apply unchanged. The transport decides where requests go:
//! over HTTP for `engram mcp` on stdio, or straight into the server's own
//! router for its `/mcp` endpoint, where each call carries the bearer key
//! of the HTTP request that brought it. The documentation tool searches the
//! docs compiled into the binary (`engram-docs`).
//!
//! It knows nothing of axum; it sees HTTP only as the request parts the MCP
//! transport hands over.

use engram_client::{Client, ClientError, Method, Transport};
use engram_docs::DocsIndex;
use engram_embed::Embedder;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// What the server tells clients when they connect.
pub const INSTRUCTIONS: &str = "Engram is a long-term memory. Remember durable facts about the \
user or project with add_memory (one fact per memory, scoped by containerTag: one tag per \
user or project), store whole texts or URLs with add_document, recall with search_memories \
before answering questions that may depend on the past, read get_profile for a summary of \
what is known, correct with forget_memory, and look up how Engram itself works with search_docs.";

/// The MCP server of one connection.
#[derive(Clone)]
pub struct EngramMcp {
    transport: Arc<dyn Transport>,
    /// The key of `engram mcp`; `None` on the server, where each request
    /// brings its own.
    key: Option<String>,
    docs: Arc<Docs>,
    tool_router: ToolRouter<Self>,
}

/// The documentation index, built on first use and shared by connections.
pub struct Docs {
    index: OnceCell<DocsIndex>,
    embedder: Option<Arc<dyn Embedder>>,
    cache_dir: Option<PathBuf>,
}

impl Docs {
    /// Docs searched with `embedder` (hybrid) or keywords alone (`None`);
    /// the sections' vectors are cached in `cache_dir` when one is given.
    pub fn new(embedder: Option<Arc<dyn Embedder>>, cache_dir: Option<PathBuf>) -> Arc<Self> {
        Arc::new(Self {
            index: OnceCell::new(),
            embedder,
            cache_dir,
        })
    }

    async fn index(&self) -> Result<&DocsIndex, String> {
        self.index
            .get_or_try_init(|| {
                DocsIndex::load_or_build(self.embedder.clone(), self.cache_dir.as_deref())
            })
            .await
            .map_err(|e| e.to_string())
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddMemoryArgs {
    /// One atomic fact, in a full sentence ("Ana prefers tea to coffee").
    pub content: String,
    /// Whose memory: one tag per user or project (letters, digits, `_`, `-`, `:`).
    pub container_tag: String,
    /// A lasting trait of the subject (name, role, preference) rather than a passing event.
    #[serde(default)]
    pub is_static: Option<bool>,
    /// When to forget it, ISO 8601 (e.g. "2026-12-31T00:00:00Z").
    #[serde(default)]
    pub forget_after: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddDocumentArgs {
    /// Text, markdown, HTML, or a URL to fetch.
    pub content: String,
    /// Whose document: one tag per user or project.
    #[serde(default)]
    pub container_tag: Option<String>,
    /// Your own id: adding again with the same id replaces the document.
    #[serde(default)]
    pub custom_id: Option<String>,
    /// Flat key-value pairs (strings, numbers, booleans) to filter on later.
    #[serde(default)]
    pub metadata: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchArgs {
    /// What to look for, as a question or keywords.
    pub q: String,
    /// Search only this user's or project's memories.
    #[serde(default)]
    pub container_tag: Option<String>,
    /// `memories` (default), `hybrid` (memories and document passages) or `documents`.
    #[serde(default)]
    pub search_mode: Option<String>,
    /// Most results (1-100, default 10).
    #[serde(default)]
    pub limit: Option<u64>,
    /// Lowest relevance, 0..1 (default 0.6; lower finds more).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// Metadata filters: {"AND": [{"key": "topic", "value": "food"}]} (also OR, negate, filterType numeric|array_contains|string_contains).
    #[serde(default)]
    pub filters: Option<Value>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileArgs {
    /// Whose profile.
    pub container_tag: String,
    /// Also search the memories for this question.
    #[serde(default)]
    pub q: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForgetArgs {
    /// The tag the memory lives under.
    pub container_tag: String,
    /// The memory's id (from search_memories); or give `content`.
    #[serde(default)]
    pub id: Option<String>,
    /// The memory's exact text; or give `id`.
    #[serde(default)]
    pub content: Option<String>,
    /// Why it is forgotten (kept in its history).
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionsArgs {
    /// Only the connections syncing into these container tags.
    #[serde(default)]
    pub container_tags: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct DocsArgs {
    /// A question about Engram: its API, CLI, configuration, deployment, SDKs or MCP.
    pub q: String,
    /// Most sections (default 5).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only this page: quickstart, concepts, api, cli, configuration, providers, deployment, sdk, mcp.
    #[serde(default)]
    pub page: Option<String>,
}

/// Drop the `None`s of a JSON object built from tool arguments.
fn body(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.into_iter().filter(|(_, v)| !v.is_null()).collect()),
        v => v,
    }
}

fn answer(r: Result<Value, ClientError>) -> Result<CallToolResult, ErrorData> {
    Ok(match r {
        Ok(v) => CallToolResult::success(vec![ContentBlock::text(
            serde_json::to_string_pretty(&v).unwrap_or_default(),
        )]),
        // the agent reads the failure and can correct its call
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
    })
}

impl EngramMcp {
    /// A server whose tools send through `transport`; `key` is the bearer
    /// key for every call, or `None` to take each call's from its HTTP
    /// request's `Authorization` header.
    pub fn new(transport: Arc<dyn Transport>, key: Option<String>, docs: Arc<Docs>) -> Self {
        Self {
            transport,
            key,
            docs,
            tool_router: Self::tool_router(),
        }
    }

    fn client(&self, ctx: &RequestContext<RoleServer>) -> Result<Client, ErrorData> {
        let key = match &self.key {
            Some(k) => k.clone(),
            None => ctx
                .extensions
                .get::<http::request::Parts>()
                .and_then(|p| p.headers.get(http::header::AUTHORIZATION))
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    v.strip_prefix("Bearer ")
                        .or_else(|| v.strip_prefix("bearer "))
                })
                .map(|k| k.trim().to_string())
                .ok_or_else(|| ErrorData::invalid_request("a bearer API key is required", None))?,
        };
        Ok(Client::with_transport(self.transport.clone(), &key))
    }

    async fn call(
        &self,
        ctx: &RequestContext<RoleServer>,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let client = self.client(ctx)?;
        answer(client.request::<Value>(method, path, body.as_ref()).await)
    }
}

#[tool_router]
impl EngramMcp {
    #[tool(
        description = "Remember one fact about a user or project. It is searchable at once; a fact that updates an earlier one (a new city, a new job) becomes its new version.",
        annotations(
            title = "Remember a fact",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn add_memory(
        &self,
        Parameters(a): Parameters<AddMemoryArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let item = body(
            json!({"content": a.content, "isStatic": a.is_static, "forgetAfter": a.forget_after}),
        );
        let req = json!({"memories": [item], "containerTag": a.container_tag});
        self.call(&ctx, Method::POST, "/v4/memories", Some(req))
            .await
    }

    #[tool(
        description = "Store a document (text, markdown, HTML or a URL). It is chunked, indexed and mined for memories in the background; the answer gives its id and status.",
        annotations(
            title = "Store a document",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn add_document(
        &self,
        Parameters(a): Parameters<AddDocumentArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let req = body(
            json!({"content": a.content, "containerTag": a.container_tag,
            "customId": a.custom_id, "metadata": a.metadata}),
        );
        self.call(&ctx, Method::POST, "/v3/documents", Some(req))
            .await
    }

    #[tool(
        description = "Search what is remembered: memories (and, with searchMode hybrid, document passages), best first, each with a similarity score. Scope with containerTag and metadata filters.",
        annotations(
            title = "Search memories",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn search_memories(
        &self,
        Parameters(a): Parameters<SearchArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let req = body(json!({"q": a.q, "containerTag": a.container_tag,
            "searchMode": a.search_mode, "limit": a.limit, "threshold": a.threshold,
            "filters": a.filters}));
        self.call(&ctx, Method::POST, "/v4/search", Some(req)).await
    }

    #[tool(
        description = "The profile of a user or project: its lasting facts (static) and recent context (dynamic); with q, also the memories that answer q.",
        annotations(
            title = "Read a profile",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn get_profile(
        &self,
        Parameters(a): Parameters<ProfileArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let req = body(json!({"containerTag": a.container_tag, "q": a.q}));
        self.call(&ctx, Method::POST, "/v4/profile", Some(req))
            .await
    }

    #[tool(
        description = "Forget a memory that is wrong or no longer wanted, by id or exact content. It stops appearing in search and profiles; its history keeps the reason.",
        annotations(
            title = "Forget a memory",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn forget_memory(
        &self,
        Parameters(a): Parameters<ForgetArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let req = body(json!({"containerTag": a.container_tag, "id": a.id,
            "content": a.content, "reason": a.reason}));
        self.call(&ctx, Method::DELETE, "/v4/memories", Some(req))
            .await
    }

    #[tool(
        description = "List the container tags (users, projects) this key can see, with how many documents and memories each holds.",
        annotations(
            title = "List container tags",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn list_container_tags(
        &self,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        self.call(&ctx, Method::GET, "/v3/container-tags/list", None)
            .await
    }

    #[tool(
        description = "List the connections that keep spaces in sync with outside sources (web crawler, S3, GitHub, Notion, Google Drive, OneDrive, Gmail): provider, container tags, document limit and how the last sync went.",
        annotations(
            title = "List connections",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn list_connections(
        &self,
        Parameters(a): Parameters<ConnectionsArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let req = body(json!({"containerTags": a.container_tags}));
        self.call(&ctx, Method::POST, "/v3/connections/list", Some(req))
            .await
    }

    #[tool(
        description = "Search Engram's own documentation (API routes with examples, CLI, configuration, providers, deployment, SDKs, MCP setup). Returns the best sections with their page and anchor.",
        annotations(
            title = "Search Engram's documentation",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn search_docs(
        &self,
        Parameters(a): Parameters<DocsArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let index = match self.docs.index().await {
            Ok(i) => i,
            Err(e) => return Ok(CallToolResult::error(vec![ContentBlock::text(e)])),
        };
        let limit = a.limit.unwrap_or(5).clamp(1, 20);
        match index.search(&a.q, limit, a.page.as_deref()).await {
            Ok(hits) => answer(Ok(json!({"results": hits}))),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(
                e.to_string(),
            )])),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for EngramMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS)
    }
}
