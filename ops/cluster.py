"""``bin/cluster up|status|down|kill NODE|start NODE``: the whole site as a cluster on one machine.

nginx on 127.0.0.1:``CLUSTER_PORT`` (8080) in front of two web nodes (gunicorn, WSGI) and two stream nodes
(gunicorn with uvicorn workers, ASGI), two Celery workers and one beat, on the machine's PostgreSQL and Redis.
Each node is started from its systemd unit in ``deploy/systemd/`` (its ``Environment=``, ``ExecStartPre=`` and
``ExecStart=`` lines, the paths of ``/srv/taikai`` and ``/run/taikai`` read as this checkout and
``.cluster/``), as a process group of its own with an environment of its own, as on a machine of its own;
nginx runs ``deploy/nginx/taikai.conf``. What runs is kept in ``.cluster/nodes.json``; the logs are in
``.cluster/logs/``. No Django here: this only starts processes.

Environment: ``CLUSTER_PORT`` (8080; the nodes take the ports above it: web +21, +22, streams +31, +32,
workers' metrics +41, +42), ``CLUSTER_DATABASE_URL`` (postgres://postgres@127.0.0.1:5432/taikai_cluster),
``CLUSTER_REDIS_URL`` (redis://127.0.0.1:6379) and ``CLUSTER_REDIS_DB`` (4: the broker; the cache is the next
one), ``CLUSTER_DIR`` (.cluster).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
UNITS = ROOT / "deploy" / "systemd"
NGINX_SITE = ROOT / "deploy" / "nginx" / "taikai.conf"
DEFAULT_PORT = 8080
OFFSETS = {"web": (21, 22), "stream": (31, 32), "worker": (41, 42)}
UNIT_OF = {"web": "taikai-web@.service", "stream": "taikai-stream@.service", "worker": "taikai-worker@.service"}


def nginx_binary() -> str | None:
    """Debian's nginx (``apt-get install -y nginx``), found even where /usr/sbin is not on the PATH."""
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    return found


@dataclass
class Node:
    name: str
    kind: str
    address: str
    pid: int
    log: str
    command: list[str]

    def alive(self) -> bool:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        try:  # a zombie left by a parent that did not wait is not alive
            return Path(f"/proc/{self.pid}/stat").read_text().split()[2] != "Z"
        except (OSError, IndexError):
            return False


class Cluster:
    def __init__(self, port: int | None = None, directory: Path | None = None, extra_env: dict | None = None):
        self.port = port or int(os.environ.get("CLUSTER_PORT") or DEFAULT_PORT)
        self.dir = Path(directory or os.environ.get("CLUSTER_DIR") or ROOT / ".cluster").resolve()
        self.database_url = os.environ.get("CLUSTER_DATABASE_URL") or (
            "postgres://postgres@127.0.0.1:5432/taikai_cluster"
            if self.port == DEFAULT_PORT
            else f"postgres://postgres@127.0.0.1:5432/taikai_cluster_{self.port}"
        )
        self.redis_url = (os.environ.get("CLUSTER_REDIS_URL") or "redis://127.0.0.1:6379").rstrip("/")
        self.redis_db = int(os.environ.get("CLUSTER_REDIS_DB") or 4)
        self.extra_env = dict(extra_env or {})
        self.state_file = self.dir / "nodes.json"

    # --- what runs where ---------------------------------------------------------------------------------

    def ports(self, kind: str) -> list[int]:
        return [self.port + offset for offset in OFFSETS[kind]]

    def env(self) -> dict:
        """The cluster's environment file (``/etc/taikai/taikai.env`` on real machines)."""
        base = {k: v for k, v in os.environ.items() if not k.startswith(("CLUSTER_", "PYTEST", "DJANGO_SETTINGS"))}
        for name in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "LIVE_BUS_URL"):
            base.pop(name, None)
        base.update(
            {
                "DATABASE_URL": self.database_url,
                "CELERY_BROKER_URL": f"{self.redis_url}/{self.redis_db}",
                "CACHE_URL": f"{self.redis_url}/{self.redis_db + 1}",
                "CELERY_TASK_DEFAULT_QUEUE": f"taikai-cluster-{self.port}",
                "DEBUG": "0",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "TRUSTED_PROXIES": "1",
                "LOG_FORMAT": "json",
                "LOG_LEVEL": "WARNING",
                "METRICS_ALLOWED_ADDRESSES": "127.0.0.1,::1",
                "BACKUP_DIR": str(self.dir / "backups"),
                "PYTHONUNBUFFERED": "1",
            }
        )
        base.update(self.extra_env)
        return base

    def unit(self, kind: str, instance: str = "") -> tuple[dict, list[list[str]], list[str]]:
        """A unit file read as this checkout runs it: its environment, its ExecStartPre and its ExecStart."""
        name = UNIT_OF.get(kind, "taikai-beat.service")
        text = (UNITS / name).read_text()
        text = text.replace("%%", "\0").replace("%i", instance).replace("%H", socket.gethostname())
        text = text.replace("\0", "%").replace("/srv/taikai/.venv/bin/", f"{Path(sys.executable).parent}/")
        text = text.replace("/srv/taikai", str(ROOT)).replace("/run/taikai", str(self.dir / "run"))
        env, before, start = {}, [], []
        for line in text.splitlines():
            key, _, value = line.partition("=")
            if key == "Environment":
                name_, _, setting = value.partition("=")
                env[name_] = setting
            elif key == "ExecStartPre":
                before.append(shlex.split(value))
            elif key == "ExecStart":
                start = shlex.split(value)
        return env, before, start

    def nginx_conf(self) -> Path:
        site = NGINX_SITE.read_text().replace("/srv/taikai", str(ROOT))
        site = site.replace(f"127.0.0.1:{DEFAULT_PORT};", f"127.0.0.1:{self.port};")
        for kind in ("web", "stream"):
            for default, port in zip([DEFAULT_PORT + o for o in OFFSETS[kind]], self.ports(kind), strict=True):
                site = site.replace(f"127.0.0.1:{default} ", f"127.0.0.1:{port} ")
        (self.dir / "taikai.conf").write_text(site)
        temp = self.dir / "nginx"
        for part in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (temp / part).mkdir(parents=True, exist_ok=True)
        user = "user root;\n" if os.geteuid() == 0 else ""
        main = f"""{user}worker_processes 2;
worker_rlimit_nofile 65536;
pid {self.dir}/nginx.pid;
error_log {self.dir}/logs/nginx-error.log warn;
events {{ worker_connections 16384; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format taikai '$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent $request_time '
                      'upstream=$upstream_addr request_id=$request_id';
    access_log {self.dir}/logs/nginx-access.log taikai;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {self.dir}/taikai.conf;
}}
"""
        path = self.dir / "nginx.conf"
        path.write_text(main)
        return path

    def planned(self) -> list[tuple[str, str, str, str]]:
        """(name, kind, instance, address) of every node."""
        nodes = [("nginx", "nginx", "", f"http://127.0.0.1:{self.port}")]
        for kind in ("web", "stream", "worker"):
            for i, port in enumerate(self.ports(kind), start=1):
                address = f"http://127.0.0.1:{port}" + ("/metrics" if kind == "worker" else "")
                nodes.append((f"{kind}{i}", kind, str(port), address))
        nodes.append(("beat", "beat", "", "-"))
        return nodes

    # --- state ---------------------------------------------------------------------------------------------

    def nodes(self) -> dict[str, Node]:
        if not self.state_file.exists():
            return {}
        return {name: Node(**node) for name, node in json.loads(self.state_file.read_text()).items()}

    def save(self, nodes: dict[str, Node]) -> None:
        self.state_file.write_text(json.dumps({name: asdict(node) for name, node in nodes.items()}, indent=1))

    def status(self) -> list[dict]:
        return [
            {"name": n.name, "kind": n.kind, "address": n.address, "pid": n.pid, "alive": n.alive(), "log": n.log}
            for n in self.nodes().values()
        ]

    # --- starting and stopping -----------------------------------------------------------------------------

    def manage(self, *arguments: str) -> None:
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *arguments],
            env=self.env(),
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def database_ready(self) -> None:
        import psycopg

        parts = urlsplit(self.database_url)
        name = parts.path.lstrip("/")
        admin = parts._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                connection.execute(f'CREATE DATABASE "{name}"')

    def spawn(self, name: str) -> Node:
        plan = {n: (k, i, a) for n, k, i, a in self.planned()}
        kind, instance, address = plan[name]
        (self.dir / "logs").mkdir(parents=True, exist_ok=True)
        log_path = self.dir / "logs" / f"{name}.log"
        env = self.env()
        if kind == "nginx":
            command = [
                nginx_binary() or "nginx",
                "-p",
                str(self.dir),
                "-c",
                str(self.nginx_conf()),
                "-g",
                "daemon off;",
            ]
        else:
            unit_env, before, command = self.unit(kind, instance)
            env.update(unit_env)
            for step in before:
                subprocess.run(step, check=True)
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        node = Node(name=name, kind=kind, address=address, pid=process.pid, log=str(log_path), command=command)
        nodes = self.nodes()
        nodes[name] = node
        self.save(nodes)
        return node

    def wait_ready(self, names: list[str] | None = None, timeout: float = 90) -> None:
        nodes = self.nodes()
        deadline = time.monotonic() + timeout
        for name in names or list(nodes):
            node = nodes[name]
            if node.kind in ("web", "stream") or node.kind == "nginx":
                url = f"{node.address}/livez"
            elif node.kind == "worker":
                url = node.address
            else:
                continue
            while True:
                if not node.alive():
                    raise RuntimeError(f"{name} stopped at start: see {node.log}")
                try:
                    with urllib.request.urlopen(url, timeout=2) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not answer {url} in {timeout:.0f} s: see {node.log}")
                time.sleep(0.2)

    def up(self, *, migrate: bool = True) -> list[dict]:
        if any(node.alive() for node in self.nodes().values()):
            raise RuntimeError(f"the cluster in {self.dir} is already up: bin/cluster down first")
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "logs").mkdir(exist_ok=True)
        self.state_file.unlink(missing_ok=True)
        if nginx_binary() is None:
            raise RuntimeError("nginx is not installed: apt-get install -y nginx")
        self.database_ready()
        if migrate:
            self.manage("migrate", "--noinput")
            self.manage("collectstatic", "--noinput")
        try:
            for name, *_ in self.planned():
                self.spawn(name)
            self.wait_ready()
        except Exception:
            self.down()
            raise
        return self.status()

    def signal_node(self, name: str, sig: int) -> None:
        node = self.nodes()[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(node.pid, sig)

    def kill(self, name: str) -> None:
        """``kill -9`` the node's whole process group, as if its machine had gone."""
        self.signal_node(name, signal.SIGKILL)
        node = self.nodes()[name]
        deadline = time.monotonic() + 10
        while node.alive() and time.monotonic() < deadline:
            time.sleep(0.05)

    def down(self, timeout: float = 15) -> None:
        nodes = self.nodes()
        for name in reversed(list(nodes)):  # nginx first in, last out
            self.signal_node(name, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while any(node.alive() for node in nodes.values()) and time.monotonic() < deadline:
            time.sleep(0.1)
        for name, node in nodes.items():
            if node.alive():
                self.signal_node(name, signal.SIGKILL)
        self.state_file.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    cluster = Cluster()
    if command == "up":
        print(f"starting the cluster in {cluster.dir} (logs in {cluster.dir / 'logs'}) ...", file=sys.stderr)
        status = cluster.up()
        print(json.dumps(status, indent=1))
        print(
            f"Taikai at http://127.0.0.1:{cluster.port}/ (admin: /admin/; probes /livez, /healthz; metrics on each "
            f"node's /metrics). Stop it with: bin/cluster down",
            file=sys.stderr,
        )
    elif command == "status":
        print(json.dumps(cluster.status(), indent=1))
    elif command == "down":
        cluster.down()
        print("stopped", file=sys.stderr)
    elif command == "kill" and len(argv) == 2:
        cluster.kill(argv[1])
    elif command == "start" and len(argv) == 2:
        cluster.spawn(argv[1])
        cluster.wait_ready([argv[1]])
    else:
        print("usage: bin/cluster up|status|down|kill NODE|start NODE", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
