//! `engram setup [--prompt] [--json]`: check that this machine can reach
//! a server with a key and say what to do next; with `--prompt`, print a
//! ready-to-paste prompt that tells a coding agent how to integrate Engram
//! into the project in the current directory (its language detected from
//! the files there).

use super::{connect, out, CliError, Common};
use serde_json::json;
use std::path::Path;

#[derive(clap::Args, Debug)]
pub struct SetupArgs {
    /// Print a prompt for a coding agent instead of the check.
    #[arg(long)]
    pub prompt: bool,
}

/// The project's language, from the files in `dir`.
pub fn detect_language(dir: &Path) -> &'static str {
    let has = |f: &str| dir.join(f).exists();
    if has("package.json") {
        "typescript"
    } else if has("pyproject.toml") || has("requirements.txt") || has("setup.py") {
        "python"
    } else if has("Cargo.toml") {
        "rust"
    } else {
        "http"
    }
}

fn sdk_snippet(language: &str, base: &str) -> String {
    match language {
        "python" => format!(
            "Install the official SDK: `pip install supermemory`. Create the client with\n\
             `Supermemory(api_key=os.environ[\"ENGRAM_API_KEY\"], base_url=\"{base}\")`;\n\
             add with `client.add(content=..., container_tag=...)`, search with\n\
             `client.search.memories(q=..., container_tag=...)`, read a profile with\n\
             `client.profile(container_tag=...)`."
        ),
        "typescript" => format!(
            "Install the official SDK: `npm install supermemory`. Create the client with\n\
             `new Supermemory({{ apiKey: process.env.ENGRAM_API_KEY, baseURL: \"{base}\" }})`;\n\
             add with `client.add({{ content, containerTag }})`, search with\n\
             `client.search.memories({{ q, containerTag }})`, read a profile with\n\
             `client.profile({{ containerTag }})`."
        ),
        _ => format!(
            "Call the HTTP API at {base} with the header `Authorization: Bearer $ENGRAM_API_KEY`\n\
             and JSON bodies (e.g. with reqwest or curl)."
        ),
    }
}

/// The integration prompt for a project in `language` and a server at `base`.
pub fn prompt(language: &str, base: &str) -> String {
    format!(
        "Integrate Engram, a self-hosted memory service (Supermemory v3/v4 API compatible), into this project.\n\
         \n\
         Server: {base}. Read the API key from the environment variable ENGRAM_API_KEY; never hard-code it.\n\
         {sdk}\n\
         \n\
         The routes to use:\n\
         - POST /v3/documents {{content, containerTag, customId?, metadata?}}: store text, markdown, HTML, a URL or a\n\
           conversation. Processing is in the background; a document is searchable when its status is `done`.\n\
         - POST /v4/conversations {{conversationId, containerTags, messages: [{{role, content}}]}}: send chat turns;\n\
           resending a conversation appends only the new turns.\n\
         - POST /v4/search {{q, containerTag, limit?, threshold?, searchMode: memories|hybrid|documents, rerank?}}:\n\
           memories (atomic facts) for a query; `hybrid` adds document chunks.\n\
         - POST /v4/profile {{containerTag, q?}}: what is known about the tag (static traits, recent context), for\n\
           a system prompt.\n\
         - POST /v4/memories, PATCH /v4/memories, DELETE /v4/memories: write, version and forget facts directly.\n\
         \n\
         Rules:\n\
         - Scope everything by container tag: one per end user (e.g. `user_<id>`), or per project; never mix users.\n\
         - Remember what the user states about themselves and their work; do not store secrets.\n\
         - Before answering, fetch the profile and search with the user's message; put both in the prompt.\n\
         - Errors are JSON {{error, details, type}}: handle 401 (key), 404 and 429 (retry after `retryAfterSeconds`).\n\
         - The full description of the API is at {base}/v3/openapi; `engram docs QUERY` searches Engram's docs\n\
           (every route with an example) offline.\n\
         - If the app is itself an agent that speaks MCP, it can use Engram's MCP server instead: {base}/mcp\n\
           (streamable HTTP, same bearer key) or `engram mcp` (stdio).\n",
        sdk = sdk_snippet(language, base)
    )
}

pub async fn run(common: Common, args: SetupArgs) -> Result<(), CliError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let language = detect_language(&cwd);
    let client = connect(&common);
    let base = match &client {
        Ok(c) => c.base().to_string(),
        Err(_) => common
            .url
            .clone()
            .unwrap_or_else(|| super::DEFAULT_URL.to_string()),
    };
    if args.prompt {
        let p = prompt(language, &base);
        if common.json {
            out(json!({"language": language, "baseUrl": base, "prompt": p}));
        } else {
            out(p);
        }
        return Ok(());
    }
    let client = client?;
    let session = client
        .session()
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    if common.json {
        out(json!({
            "baseUrl": base,
            "organisation": session.org.name,
            "key": session.user.name,
            "language": language,
            "ready": true,
        }));
    } else {
        out(format!(
            "Engram is reachable at {base} with key `{}` of organisation `{}`.\n\
             Next: `engram add \"...\" --tag you`, then `engram search \"...\" --tag you`;\n\
             to integrate this {language} project, paste the output of `engram setup --prompt` into your coding agent.",
            session.user.name, session.org.name
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_and_prompts() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(detect_language(dir.path()), "http");
        std::fs::write(dir.path().join("pyproject.toml"), "").unwrap();
        assert_eq!(detect_language(dir.path()), "python");
        std::fs::write(dir.path().join("package.json"), "{}").unwrap();
        assert_eq!(detect_language(dir.path()), "typescript");
        let p = prompt("python", "http://h:1");
        assert!(p.contains("base_url=\"http://h:1\""));
        assert!(p.contains("ENGRAM_API_KEY") && p.contains("/v4/search"));
        assert!(prompt("typescript", "http://h:1").contains("baseURL: \"http://h:1\""));
    }
}
