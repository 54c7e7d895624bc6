//! The operator's and the tests' tools (built with the `ssr` feature only),
//! kept out of the server, which is only what serves requests: the
//! server-side benchmark (`dames bench-server`), the load generator
//! (`dames loadtest`), the local cluster with its round-robin proxy
//! (`dames cluster`, `make cluster`, `tests/cluster.rs`) and the throw-away
//! PostgreSQL the cluster and the storage tests run on.

pub mod bench;
pub mod cluster;
pub mod loadtest;
pub mod throwaway;
