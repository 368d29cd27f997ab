package config

import "hermes/backend/i18n"

func init() { i18n.Register(updateMessages) }

func updateMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.invalid.update.feed_url": {
			EN: "[update] feed_url %q is not an https URL; set it to the signed feed, such as https://example.org/hermes/feed.json (http only on loopback), or remove it to turn updates off",
			ZH: "[update] feed_url %q 不是 https 地址；请设为已签名的更新源，例如 https://example.org/hermes/feed.json（仅回环地址可用 http），或删除它以关闭更新",
		},
		"config.invalid.update.public_key": {
			EN: "[update] public_key is not a minisign public key; paste the RW… line of the feed's .pub file, or remove it to trust the key built into Hermes",
			ZH: "[update] public_key 不是 minisign 公钥；请粘贴更新源 .pub 文件中以 RW 开头的那一行，或删除它以信任 Hermes 内置的公钥",
		},
		"config.invalid.update.channel": {
			EN: `[update] channel is %q; set it to "stable" or "beta"`,
			ZH: `[update] channel 为 %q；请设为 "stable" 或 "beta"`,
		},
		"config.invalid.update.check": {
			EN: `[update] check is %q; set it to "start" (check when the app opens) or "manual"`,
			ZH: `[update] check 为 %q；请设为 "start"（应用打开时检查）或 "manual"（手动）`,
		},
	}
}
