//! The HTTP integration suite: every test starts the real router on port 0
//! over a fresh SQLite database and talks to it with an HTTP client.

mod auth;
mod documents;
mod pipeline;
mod real_model;
mod sdk;
mod search;
mod support;
mod uploads;
