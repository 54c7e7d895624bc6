//! A throw-away PostgreSQL server for the tests and `dames cluster`:
//! Debian's binaries, a new cluster in a folder of its own, on a free port
//! of 127.0.0.1, never the system's cluster. PostgreSQL refuses to run as
//! root: as root, every command runs as the `postgres` system user. A
//! watchdog stops the server and removes its folder when this process ends,
//! however it ends (a test binary never drops its statics).

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A running throw-away server; stopped and removed on drop.
pub struct ThrowawayPostgres {
    folder: PathBuf,
    bin: PathBuf,
    port: u16,
    /// Run the commands as `postgres` (this process is root).
    as_postgres: bool,
}

/// Where Debian puts the server's programs: the newest
/// `/usr/lib/postgresql/<version>/bin`, or `DAMES_PG_BIN`.
pub fn postgres_bin() -> io::Result<PathBuf> {
    if let Ok(dir) = std::env::var("DAMES_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|e| not_installed(&format!("/usr/lib/postgresql: {e}")))?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin).ok_or_else(|| not_installed("no /usr/lib/postgresql/*/bin/initdb"))
}

fn not_installed(why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("PostgreSQL's server is not installed ({why}): `./scripts/install-tools.sh --postgres` installs it"),
    )
}

/// A port free now on 127.0.0.1.
pub fn free_port() -> io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

impl ThrowawayPostgres {
    /// Creates a cluster in a new folder under `parent` (the system's
    /// temporary folder if `None`) and starts it. `durable: false` turns
    /// fsync off (tests: faster, and nothing to keep).
    pub fn start(parent: Option<&Path>, durable: bool) -> io::Result<ThrowawayPostgres> {
        let bin = postgres_bin()?;
        let parent = parent.map(Path::to_path_buf).unwrap_or_else(std::env::temp_dir);
        std::fs::create_dir_all(&parent)?;
        let folder = parent.join(format!("dames-pg-{}-{}", std::process::id(), free_port()?));
        std::fs::create_dir(&folder)?;
        let as_postgres = running_as_root();
        if as_postgres {
            let (uid, gid) = (id_of("-u")?, id_of("-g")?);
            std::os::unix::fs::chown(&folder, Some(uid), Some(gid))?;
        }
        let server = ThrowawayPostgres { folder, bin, port: free_port()?, as_postgres };
        server.run(
            "initdb",
            &["-D", &server.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
        )?;
        let settings = format!(
            "\nlisten_addresses = '127.0.0.1'\nport = {}\nunix_socket_directories = '{}'\nmax_connections = 200\n\
             fsync = {durable}\nsynchronous_commit = {durable}\nfull_page_writes = {durable}\n",
            server.port,
            server.folder.display(),
        );
        let conf = server.folder.join("data/postgresql.conf");
        let mut text = std::fs::read_to_string(&conf)?;
        text.push_str(&settings);
        std::fs::write(&conf, text)?;
        server.watch_this_process()?;
        server.start_again()?;
        Ok(server)
    }

    fn data(&self) -> String {
        self.folder.join("data").display().to_string()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The address of `database` on this server.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Runs one of the server's programs (as `postgres` when root).
    fn run(&self, program: &str, args: &[&str]) -> io::Result<()> {
        let output = self.command(program).args(args).stdin(Stdio::null()).output()?;
        if !output.status.success() {
            return Err(io::Error::other(format!(
                "{program} failed: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )));
        }
        Ok(())
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    /// Starts the server (again, after [`ThrowawayPostgres::stop`]) and
    /// waits until it accepts connections.
    pub fn start_again(&self) -> io::Result<()> {
        let log = self.folder.join("server.log").display().to_string();
        self.run("pg_ctl", &["-D", &self.data(), "-l", &log, "-w", "-t", "60", "start"])
    }

    /// Stops the server (fast shutdown: open connections are cut).
    pub fn stop(&self) -> io::Result<()> {
        self.run("pg_ctl", &["-D", &self.data(), "-w", "-m", "fast", "stop"])
    }

    /// A watchdog shell that outlives nothing: once this process is gone,
    /// it stops the server and removes the folder.
    fn watch_this_process(&self) -> io::Result<()> {
        let script = format!(
            "while [ -d /proc/{pid} ]; do sleep 1; done; \
             '{bin}/pg_ctl' -D '{data}' -m immediate stop >/dev/null 2>&1; rm -rf '{folder}'",
            pid = std::process::id(),
            bin = self.bin.display(),
            data = self.data(),
            folder = self.folder.display(),
        );
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--", "sh", "-c", &script]);
            c
        } else {
            let mut c = Command::new("sh");
            c.args(["-c", &script]);
            c
        };
        command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
        Ok(())
    }
}

impl Drop for ThrowawayPostgres {
    fn drop(&mut self) {
        let _ = self.run("pg_ctl", &["-D", &self.data(), "-w", "-m", "immediate", "stop"]);
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

fn running_as_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// The `postgres` user's uid (`-u`) or gid (`-g`).
fn id_of(which: &str) -> io::Result<u32> {
    let output = Command::new("id").args([which, "postgres"]).output()?;
    String::from_utf8_lossy(&output.stdout).trim().parse().map_err(|_| not_installed("no `postgres` system user"))
}
