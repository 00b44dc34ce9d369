//! The HTTP integration suite: every test starts the real router on port 0
//! over a fresh database (SQLite, or PostgreSQL with
//! `ENGRAM_TEST_BACKEND=postgres`) and talks to it with an HTTP client.

mod analytics;
mod auth;
mod bad_input;
mod connections;
mod console;
mod documents;
mod faults;
mod fuzzed;
mod keys;
mod llm;
mod mcp;
mod memories;
mod openapi;
mod pipeline;
mod quality;
mod real_model;
mod replicas;
mod scoped;
mod sdk;
mod search;
mod settings;
mod snapshots;
mod spaces;
mod support;
mod tags;
mod tenancy;
mod uploads;
