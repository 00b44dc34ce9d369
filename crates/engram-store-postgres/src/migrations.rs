//! The schema migrations this backend applies at start (`migrations/`),
//! embedded in the binary; see [`engram_store::migrations`].

engram_store::embedded_migrations![
    "0001_init.sql",
    "0002_memories.sql",
    "0003_job_notify.sql",
    "0004_dream_jobs.sql",
    "0005_spaces.sql",
    "0006_analytics.sql",
    "0007_space_user.sql",
    "0008_memory_source.sql",
    "0009_tag_order.sql",
    "0010_connections.sql",
    "0011_index_log_columns.sql",
];
