package config

import (
	"cmp"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"hermes/backend/i18n"
)

// Cluster makes several `hermes bot` replicas serve one callback URL
// together, sharing through NATS JetStream what one process keeps in
// hermes.db: the message ids seen, the sessions, the WeCom access token and
// rate limits, and a queue of tasks any replica takes. Off while NATSURL is
// empty: the bot is then one process on its home's hermes.db.
type Cluster struct {
	// NATSURL is the NATS servers, comma-separated, such as
	// "nats://n1:4222,nats://n2:4222,nats://n3:4222".
	NATSURL string `toml:"nats_url"`
	// NATSToken authenticates with a token; NATSCreds names a .creds file
	// (a user JWT and its seed) instead.
	NATSToken    string `toml:"nats_token"`
	NATSTokenEnv string `toml:"nats_token_env"`
	NATSCreds    string `toml:"nats_creds"`
	NATSCredsEnv string `toml:"nats_creds_env"`
	// Replicas is how many JetStream servers keep a copy of each stream and
	// bucket; 0 means 1. Three survive the loss of one server.
	Replicas int `toml:"replicas"`
	// AckWait is how long a replica may go without word (it sends word
	// while it runs a task) before its task is given to another; 0 means
	// DefaultClusterAckWait.
	AckWait Duration `toml:"ack_wait"`
	// Insecure lets the replicas reach NATS servers on other machines with
	// neither a token nor a .creds file. Whoever reaches those servers then
	// reads and changes what the bot shares there: its sessions, the users'
	// memories and its tasks, which run as the bot.
	Insecure bool `toml:"insecure"`
}

// DefaultClusterAckWait is how long a task stays with a silent replica.
const DefaultClusterAckWait = 30 * time.Second

// Enabled reports whether the bot runs as one replica of a cluster.
func (c Cluster) Enabled() bool { return c.NATSURL != "" }

// StreamReplicas is the number of copies JetStream keeps.
func (c Cluster) StreamReplicas() int { return max(c.Replicas, 1) }

// TaskAckWait is how long a task stays with a replica that sends no word.
func (c Cluster) TaskAckWait() time.Duration {
	if c.AckWait.Duration > 0 {
		return c.AckWait.Duration
	}
	return DefaultClusterAckWait
}

func (c Cluster) validate() error {
	var errs []error
	for _, s := range splitURLs(c.NATSURL) {
		u, err := url.Parse(s)
		if err != nil || !slices.Contains([]string{"nats", "tls", "ws", "wss"}, u.Scheme) || u.Host == "" {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.cluster.url"))
			break
		}
		if u.User != nil {
			// A password in the URL would be in every log line that shows it.
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.cluster.url_user"))
			break
		}
	}
	if !slices.Contains([]int{0, 1, 3, 5}, c.Replicas) {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.cluster.replicas", c.Replicas))
	}
	if c.AckWait.Duration < 0 || (c.AckWait.Duration > 0 && c.AckWait.Duration < time.Second) {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.cluster.ack_wait", c.AckWait.String()))
	}
	if c.NATSToken != "" && c.NATSCreds != "" {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.cluster.auth"))
	}
	// The file names its secrets through variables it cannot resolve
	// itself: a variable named counts, and CheckAuth holds the replica to
	// what it resolves to.
	named := c.NATSToken != "" || c.NATSCreds != "" || c.NATSTokenEnv != "" || c.NATSCredsEnv != ""
	errs = append(errs, c.authError(named))
	return errors.Join(errs...)
}

// CheckAuth refuses, once environment references are resolved
// (Config.ResolveEnv), a replica that would reach NATS servers on other
// machines with neither a token nor a .creds file, unless Insecure; a
// variable named for them but unset leaves it none. Every replica and
// observer checks it before it connects, as Validate checks the file.
func (c Cluster) CheckAuth() error { return c.authError(c.NATSToken != "" || c.NATSCreds != "") }

func (c Cluster) authError(authenticated bool) error {
	if !c.Enabled() || authenticated || c.Insecure {
		return nil
	}
	far := c.elsewhere()
	if len(far) == 0 {
		return nil
	}
	if name := cmp.Or(c.NATSTokenEnv, c.NATSCredsEnv); name != "" {
		return i18n.Wrap(ErrInvalid, "config.cluster.auth_unset", name, strings.Join(far, ", "))
	}
	return i18n.Wrap(ErrInvalid, "config.cluster.no_auth", strings.Join(far, ", "))
}

// Warnings are what [cluster] lets the replicas start with but leaves
// open, once environment references are resolved: NATS without a token
// or a .creds file, on this machine (any process here may use it) or, with
// insecure = true, on others; and a variable named for them but unset,
// which CheckAuth refuses where the replicas start with it unset too.
func (c Cluster) Warnings() []error {
	if !c.Enabled() || c.NATSToken != "" || c.NATSCreds != "" {
		return nil
	}
	far := c.elsewhere()
	switch {
	case len(far) == 0:
		return []error{i18n.Errorf("config.cluster.no_auth_here")}
	case c.Insecure:
		return []error{i18n.Errorf("config.cluster.insecure", strings.Join(far, ", "))}
	case c.NATSTokenEnv != "" || c.NATSCredsEnv != "":
		return []error{c.CheckAuth()}
	}
	return nil // Validate refuses it
}

// elsewhere are the servers of NATSURL not on this machine, as host:port.
// A host is on this machine when it is localhost or a loopback address
// (127.0.0.0/8, ::1); any other name may resolve anywhere.
func (c Cluster) elsewhere() []string {
	var far []string
	for _, s := range splitURLs(c.NATSURL) {
		u, err := url.Parse(s)
		if err != nil {
			continue // validate reports it
		}
		host := u.Hostname()
		if ip := net.ParseIP(host); strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback() {
			continue
		}
		far = append(far, u.Host)
	}
	return far
}

// splitURLs are the servers of a comma-separated list.
func splitURLs(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

func init() {
	i18n.Register(clusterMessages)
}

// clusterDocs adds the documentation of [cluster]'s keys to docs, for allDocs.
func clusterDocs(docs map[string]keyDoc) {
	docs["cluster"] = doc("Several `hermes bot` replicas behind one callback URL, sharing through NATS JetStream; see docs/cluster.md.",
		"多个 `hermes bot` 副本共用一个回调地址，通过 NATS JetStream 共享状态；见 docs/cluster.md。")
	docs["cluster.nats_url"] = doc(`The NATS servers, comma-separated, such as "nats://n1:4222,nats://n2:4222,nats://n3:4222"; "" runs the bot as one process on hermes.db. No user or password in the URL: use nats_token_env or nats_creds.`,
		`NATS 服务器地址，逗号分隔，例如 "nats://n1:4222,nats://n2:4222,nats://n3:4222"；"" 表示机器人作为单个进程使用 hermes.db。地址中不得包含用户名或密码：请使用 nats_token_env 或 nats_creds。`)
	docs["cluster.nats_token"] = doc("The token NATS authenticates the replica with (better: nats_token_env).", "NATS 用于认证副本的令牌（更好的做法：nats_token_env）。")
	docs["cluster.nats_token_env"] = doc("The environment variable that holds nats_token.", "保存 nats_token 的环境变量名。")
	docs["cluster.nats_creds"] = doc("The path of a NATS .creds file (a user JWT and its seed), instead of a token.", "NATS .creds 文件（用户 JWT 及其种子）的路径，可代替令牌。")
	docs["cluster.nats_creds_env"] = doc("The environment variable that holds nats_creds.", "保存 nats_creds 的环境变量名。")
	docs["cluster.replicas"] = docShown("How many JetStream servers keep a copy of each stream and bucket: 1, 3 or 5 (0 means 1). Three survive the loss of one server.",
		"每个流和存储桶在多少台 JetStream 服务器上保存副本：1、3 或 5（0 表示 1）。3 份可承受一台服务器故障。", 0)
	docs["cluster.insecure"] = doc("Let the replicas reach NATS servers on other machines with neither a token nor a .creds file; whoever reaches those servers then reads and changes the bot's sessions, the users' memories and its tasks. Without it such a config is refused; a server on this machine (localhost, 127.0.0.0/8, ::1) is allowed without credentials, with a warning.",
		"允许副本在没有令牌也没有 .creds 文件的情况下连接其他机器上的 NATS 服务器；能访问这些服务器的任何人都能读取和修改机器人的会话、用户的记忆和任务。不设置时，这样的配置会被拒绝；本机上的服务器（localhost、127.0.0.0/8、::1）无需凭据即可使用，但会给出警告。")
	docs["cluster.ack_wait"] = docShown(`How long a task stays with a replica that sends no word (a running replica sends word every third of it) before another replica takes it; "0s" means 30s.`,
		`任务在没有回音的副本上保留多久（运行中的副本每隔三分之一时间报告一次），之后由其他副本接手；"0s" 表示 30s。`, Duration{})
}

func clusterMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.cluster.url": {
			EN: `[cluster] nats_url must list NATS servers as nats://host:port (or tls://, ws://, wss://), comma-separated; fix it in hermes.toml or set it to "" for one bot process`,
			ZH: `[cluster] nats_url 必须以 nats://主机:端口（或 tls://、ws://、wss://）列出 NATS 服务器，逗号分隔；请在 hermes.toml 中修改，或设为 "" 以单进程运行机器人`,
		},
		"config.cluster.url_user": {
			EN: "[cluster] nats_url holds a user or password; remove it from the URL and give a token with nats_token_env or a .creds file with nats_creds",
			ZH: "[cluster] nats_url 中包含用户名或密码；请从地址中删除，改用 nats_token_env 指定令牌或用 nats_creds 指定 .creds 文件",
		},
		"config.cluster.replicas": {
			EN: "[cluster] replicas is %d but must be 1, 3 or 5; change it in hermes.toml",
			ZH: "[cluster] replicas 为 %d，但必须是 1、3 或 5；请在 hermes.toml 中修改",
		},
		"config.cluster.ack_wait": {
			EN: `[cluster] ack_wait is %s but must be "0s" (the default) or at least "1s"; change it in hermes.toml`,
			ZH: `[cluster] ack_wait 为 %s，但必须为 "0s"（默认值）或至少 "1s"；请在 hermes.toml 中修改`,
		},
		"config.cluster.no_auth": {
			EN: "[cluster] nats_url names NATS servers on other machines (%s) without a token or credentials, so anyone who reaches them could read and change the bot's sessions, memories and tasks; give a token with nats_token_env (the server's authorization token) or a .creds file with nats_creds, or, on a network only the replicas share, write insecure = true in [cluster]",
			ZH: "[cluster] nats_url 指向其他机器上的 NATS 服务器（%s），却没有令牌或凭据，能访问它们的任何人都能读取和修改机器人的会话、记忆和任务；请用 nats_token_env 指定令牌（服务器的授权令牌）或用 nats_creds 指定 .creds 文件；若网络仅供各副本使用，也可在 [cluster] 中写 insecure = true",
		},
		"config.cluster.auth_unset": {
			EN: "[cluster] names the variable %s for the NATS credentials, but it is not set, so the replica would reach %s without a token or credentials; set it in the environment hermes runs in, or write insecure = true in [cluster] on a network only the replicas share",
			ZH: "[cluster] 指定环境变量 %s 提供 NATS 凭据，但该变量未设置，副本将在没有令牌或凭据的情况下连接 %s；请在运行 hermes 的环境中设置它；若网络仅供各副本使用，也可在 [cluster] 中写 insecure = true",
		},
		"config.cluster.no_auth_here": {
			EN: "[cluster] nats_url names a NATS server on this machine without a token or credentials: any process here can read and change the bot's sessions, memories and tasks; give a token with nats_token_env (and run the server with it) or a .creds file with nats_creds",
			ZH: "[cluster] nats_url 指向本机上的 NATS 服务器，却没有令牌或凭据：本机上的任何进程都能读取和修改机器人的会话、记忆和任务；请用 nats_token_env 指定令牌（并让服务器使用同一令牌）或用 nats_creds 指定 .creds 文件",
		},
		"config.cluster.insecure": {
			EN: "[cluster] insecure = true: the replicas reach %s without a token or credentials, so anyone who reaches those servers can read and change the bot's sessions, memories and tasks; give a token with nats_token_env or a .creds file with nats_creds, then remove insecure",
			ZH: "[cluster] insecure = true：副本在没有令牌或凭据的情况下连接 %s，能访问这些服务器的任何人都能读取和修改机器人的会话、记忆和任务；请用 nats_token_env 指定令牌或用 nats_creds 指定 .creds 文件，然后删除 insecure",
		},
		"config.cluster.auth": {
			EN: "[cluster] sets both nats_token and nats_creds; keep one of them in hermes.toml",
			ZH: "[cluster] 同时设置了 nats_token 和 nats_creds；请在 hermes.toml 中只保留其一",
		},
	}
}
