package dev.hindsight.platform.redact;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ordinary text that looks a little like a secret, or talks about secrets, must come through untouched. */
class SecretScrubberFalsePositiveTest {

    private final SecretScrubber scrubber = new SecretScrubber();

    @ParameterizedTest
    @ValueSource(strings = {
            "Reverted 3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291 because it broke the build.",
            "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dev <dev@example.com>",
            "Request 550e8400-e29b-41d4-a716-446655440000 failed; retrying as 6ba7b810-9dad-11d1-80b4-00c04fd430c8.",
            "The payload was base64 aGVsbG8gd29ybGQgdGhpcyBpcyBub3QgYSBzZWNyZXQ= and decodes to a greeting.",
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA dev@laptop is the public key to add.",
            "We use a token bucket to rate-limit requests; tokens refill every second.",
            "The password reset flow sends an email with a one-time link.",
            "Bearer tokens expire after one hour, so the client refreshes them.",
            "The api-key header must be set on every request; see the secret management guide.",
            "Secret Santa: Alice draws Bob.",
            "Forgot password: click the link in the email.",
            "Edited src/main/java/dev/hindsight/auth/TokenService.java and config/secrets.example.yaml",
            "cat ~/.aws/credentials && ls ~/.ssh/id_rsa.pub /etc/passwd",
            "PWD=/home/dev/project\nOLDPWD=/home/dev",
            "max_tokens: 4096\ntokenizer: sentencepiece\ntoken_type: bearer\npassword_hash: bcrypt",
            "feature.secret: true\npassword: none\ntoken: null",
            "curl https://example.com:8443/health?check=1 && git clone git@github.com:acme/api.git",
            "url = \"https://user@example.com/path\"  # no password in it",
            "password = os.environ[\"DB_PASSWORD\"]\napi_key = settings.OPENAI_API_KEY",
            "token = generate_token(user)\nsecret = vault.read(path)",
            "String token = request.getHeader(\"Authorization\");\nif (token == null) return;",
            "password: ${DB_PASSWORD}\napi_key: <your-api-key>\nsecret: '{{ vault_secret }}'\ntoken: $TOKEN",
            "password=********\napi_key=xxxxxxxxxxxxxxxx",
            "Use the AKIA prefix to spot AWS keys; eyJ is how base64 JSON starts.",
            "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2\n-----END CERTIFICATE-----",
            "task-1234567890abcdefghijklmn and disk-abcdefghijklmnopqrstu9 are job names",
            "Der Passwort-Reset schlägt fehl — 密码重置失败 — сброс пароля не работает 🔑",
            "key: value\nid: 42\nhash: d41d8cd98f00b204e9800998ecf8427e",
            "Authorization: Bearer $GITHUB_TOKEN is passed by the CI runner.",
            "The login form posts user=alice&remember=true to /session.",
    })
    void ordinary_text_is_left_alone(String text) {
        assertThat(scrubber.scrub(text)).isEqualTo(text);
    }
}
