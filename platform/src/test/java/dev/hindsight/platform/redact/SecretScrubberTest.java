package dev.hindsight.platform.redact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One secret of each kind planted in realistic text: it disappears, and everything around it survives. */
class SecretScrubberTest {

    private final SecretScrubber scrubber = new SecretScrubber();

    static Stream<Arguments> plantedSecrets() {
        String awsId = Fakes.awsAccessKeyId();
        String awsTemp = Fakes.awsTemporaryKeyId();
        String awsSecret = Fakes.awsSecretAccessKey();
        String google = Fakes.googleApiKey();
        String ghp = Fakes.githubToken("p");
        String ghs = Fakes.githubToken("s");
        String gho = Fakes.githubToken("o");
        String ghu = Fakes.githubToken("u");
        String ghr = Fakes.githubToken("r");
        String pat = Fakes.githubFineGrained();
        String slack = Fakes.slackToken();
        String stripe = Fakes.stripeKey("sk");
        String restricted = Fakes.stripeKey("rk");
        String openAi = Fakes.openAiKey();
        String anthropic = Fakes.anthropicKey();
        String jwt = Fakes.jwt();
        String gitlab = Fakes.gitlabToken();
        String webhook = Fakes.slackWebhookPath();
        String hf = Fakes.huggingFaceToken();
        String npm = Fakes.npmToken();
        String oauth = Fakes.googleOauthToken();
        String azureKey = Fakes.azureStorageKey();
        String sas = Fakes.azureSasSignature();
        return Stream.of(
                Arguments.of("gitlab-token in a clone command", gitlab,
                        "git clone https://oauth2@gitlab.example.com/x.git with token " + gitlab + " then build",
                        "git clone https://oauth2@gitlab.example.com/x.git with token [REDACTED:gitlab-token] then build"),
                Arguments.of("slack-webhook in a curl", webhook,
                        "curl -X POST https://hooks.slack.com/services/" + webhook + " -d '{\"text\":\"hi\"}'",
                        "curl -X POST https://hooks.slack.com/services/[REDACTED:slack-webhook] -d '{\"text\":\"hi\"}'"),
                Arguments.of("huggingface-token in an env line", hf,
                        "HF_HUB_TOKEN_VALUE " + hf + " was used to pull the model",
                        "HF_HUB_TOKEN_VALUE [REDACTED:huggingface-token] was used to pull the model"),
                Arguments.of("npm-token in an npmrc", npm,
                        "//registry.npmjs.org/:_authToken " + npm,
                        "//registry.npmjs.org/:_authToken [REDACTED:npm-token]"),
                Arguments.of("google-oauth-token in a header dump", oauth,
                        "the gcloud call sent " + oauth + " and got 403",
                        "the gcloud call sent [REDACTED:google-oauth-token] and got 403"),
                Arguments.of("azure-storage-key in a connection string", azureKey,
                        "DefaultEndpointsProtocol=https;AccountName=traces;AccountKey=" + azureKey
                                + ";EndpointSuffix=core.windows.net",
                        "DefaultEndpointsProtocol=https;AccountName=traces;AccountKey=[REDACTED:azure-storage-key]"
                                + ";EndpointSuffix=core.windows.net"),
                Arguments.of("azure-sas-signature in a blob URL", sas,
                        "GET https://traces.blob.core.windows.net/c/a.json?sv=2022-11-02&sp=r&sig=" + sas + " 200",
                        "GET https://traces.blob.core.windows.net/c/a.json?sv=2022-11-02&sp=r"
                                + "&sig=[REDACTED:azure-sas-signature] 200"),
                Arguments.of("aws-access-key-id in a shell session", awsId,
                        "$ export AWS_ACCESS_KEY_ID=" + awsId + "\n$ aws s3 ls s3://hindsight-traces\n",
                        "$ export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id]\n$ aws s3 ls s3://hindsight-traces\n"),
                Arguments.of("temporary aws-access-key-id in a log", awsTemp,
                        "INFO assumed role deployer, credentials " + awsTemp + " valid until 12:00Z",
                        "INFO assumed role deployer, credentials [REDACTED:aws-access-key-id] valid until 12:00Z"),
                Arguments.of("aws-secret-access-key in ~/.aws/credentials", awsSecret,
                        "[default]\naws_secret_access_key = " + awsSecret + "\nregion = eu-west-1\n",
                        "[default]\naws_secret_access_key = [REDACTED:aws-secret-access-key]\nregion = eu-west-1\n"),
                Arguments.of("aws-secret-access-key in sts JSON", awsSecret,
                        "{\"Credentials\": {\"SecretAccessKey\": \"" + awsSecret + "\", \"Expiration\": \"2026-01-06\"}}",
                        "{\"Credentials\": {\"SecretAccessKey\": \"[REDACTED:aws-secret-access-key]\", "
                                + "\"Expiration\": \"2026-01-06\"}}"),
                Arguments.of("google-api-key in JavaScript", google,
                        "const url = `https://maps.googleapis.com/maps/api/geocode/json?key=" + google + "&q=${q}`;",
                        "const url = `https://maps.googleapis.com/maps/api/geocode/json?key=[REDACTED:google-api-key]"
                                + "&q=${q}`;"),
                Arguments.of("ghp github-token in an env file", ghp,
                        "GITHUB_TOKEN=" + ghp + "\nLOG_LEVEL=debug",
                        "GITHUB_TOKEN=[REDACTED:github-token]\nLOG_LEVEL=debug"),
                Arguments.of("ghs github-token inside a clone URL", ghs,
                        "git remote set-url origin https://x-access-token:" + ghs + "@github.com/acme/api.git",
                        "git remote set-url origin https://x-access-token:[REDACTED:github-token]"
                                + "@github.com/acme/api.git"),
                Arguments.of("gho, ghu and ghr github-tokens in prose", gho,
                        "Rotated " + gho + ", " + ghu + " and " + ghr + " after the incident.",
                        "Rotated [REDACTED:github-token], [REDACTED:github-token] and [REDACTED:github-token] after "
                                + "the incident."),
                Arguments.of("fine-grained github-token in JSON", pat,
                        "{\"auth\": \"" + pat + "\", \"repo\": \"acme/api\"}",
                        "{\"auth\": \"[REDACTED:github-token]\", \"repo\": \"acme/api\"}"),
                Arguments.of("slack-token in a curl command", slack,
                        "curl -s -d 'text=deployed' -H 'Authorization: Bearer " + slack
                                + "' https://slack.com/api/chat.postMessage",
                        "curl -s -d 'text=deployed' -H 'Authorization: Bearer [REDACTED:slack-token]' "
                                + "https://slack.com/api/chat.postMessage"),
                Arguments.of("stripe secret key in Python", stripe,
                        "import stripe\nstripe.api_key = \"" + stripe + "\"\ncharge = stripe.Charge.create(amount=500)",
                        "import stripe\nstripe.api_key = \"[REDACTED:stripe-key]\"\n"
                                + "charge = stripe.Charge.create(amount=500)"),
                Arguments.of("stripe restricted key in a log", restricted,
                        "WARN using restricted key " + restricted + " for refunds",
                        "WARN using restricted key [REDACTED:stripe-key] for refunds"),
                Arguments.of("openai-key in a shell export", openAi,
                        "export OPENAI_API_KEY=" + openAi + " && python eval.py",
                        "export OPENAI_API_KEY=[REDACTED:openai-key] && python eval.py"),
                Arguments.of("anthropic-key in Python", anthropic,
                        "client = anthropic.Anthropic(api_key=\"" + anthropic + "\")",
                        "client = anthropic.Anthropic(api_key=\"[REDACTED:anthropic-key]\")"),
                Arguments.of("bearer-token in an HTTP log", "7f3c9a1e5b2d4f6a8c0e",
                        "DEBUG GET /v1/users HTTP/1.1\nAuthorization: Bearer 7f3c9a1e5b2d4f6a8c0e\nAccept: */*",
                        "DEBUG GET /v1/users HTTP/1.1\nAuthorization: Bearer [REDACTED:bearer-token]\nAccept: */*"),
                Arguments.of("bearer-token in JSON headers", "abc123def456ghi789",
                        "{\"headers\": {\"Authorization\": \"Bearer abc123def456ghi789\", \"X-Trace\": \"1\"}}",
                        "{\"headers\": {\"Authorization\": \"Bearer [REDACTED:bearer-token]\", \"X-Trace\": \"1\"}}"),
                Arguments.of("bare bearer-token in a curl command", "Zm9vYmFyYmF6cXV4MTIzNDU2",
                        "curl -H \"bearer Zm9vYmFyYmF6cXV4MTIzNDU2\" localhost:8093/memories",
                        "curl -H \"bearer [REDACTED:bearer-token]\" localhost:8093/memories"),
                Arguments.of("basic-auth header", "YWRtaW46aHVudGVyMg==",
                        "> Authorization: Basic YWRtaW46aHVudGVyMg==\n< HTTP/1.1 401 Unauthorized",
                        "> Authorization: Basic [REDACTED:basic-auth]\n< HTTP/1.1 401 Unauthorized"),
                Arguments.of("jwt in a log line", jwt,
                        "token validated: " + jwt + " (exp 1516239022)",
                        "token validated: [REDACTED:jwt] (exp 1516239022)"),
                Arguments.of("url-password in a Postgres URL", "s3cr3t-P4ss",
                        "DATABASE_URL=postgres://app:s3cr3t-P4ss@db:5432/x psql \"$DATABASE_URL\"",
                        "DATABASE_URL=postgres://app:[REDACTED:url-password]@db:5432/x psql \"$DATABASE_URL\""),
                Arguments.of("url-password with an empty user", "p4ssw0rd",
                        "cache: redis://:p4ssw0rd@cache:6379/0",
                        "cache: redis://:[REDACTED:url-password]@cache:6379/0"),
                Arguments.of("url-password in a JDBC URL", "Tr0ub4dor&3",
                        "jdbc:postgresql://admin:Tr0ub4dor&3@10.0.0.5/hindsight_memory failed to connect",
                        "jdbc:postgresql://admin:[REDACTED:url-password]@10.0.0.5/hindsight_memory failed to connect"),
                Arguments.of("api_key= in a config line", "9f8e7d6c5b4a39281706",
                        "service.api_key=9f8e7d6c5b4a39281706\nservice.timeout=30s",
                        "service.api_key=[REDACTED:api-key]\nservice.timeout=30s"),
                Arguments.of("apikey: in YAML", "Q2hhbmdlTWUxMjM0NTY3",
                        "weather:\n  apikey: Q2hhbmdlTWUxMjM0NTY3\n  units: metric\n",
                        "weather:\n  apikey: [REDACTED:api-key]\n  units: metric\n"),
                Arguments.of("api-key: as a header line", "a1b2c3d4e5f6a7b8c9d0",
                        "x-api-key: a1b2c3d4e5f6a7b8c9d0\ncontent-type: application/json",
                        "x-api-key: [REDACTED:api-key]\ncontent-type: application/json"),
                Arguments.of("\"apiKey\" in JSON", "live_4f9a8b7c",
                        "{\"apiKey\": \"live_4f9a8b7c\", \"region\": \"eu\"}",
                        "{\"apiKey\": \"[REDACTED:api-key]\", \"region\": \"eu\"}"),
                Arguments.of("secret= in a URL query", "8c1f0e9d7b6a5c4e",
                        "GET /oauth/callback?code=abc&secret=8c1f0e9d7b6a5c4e&state=xyz",
                        "GET /oauth/callback?code=abc&secret=[REDACTED:secret]&state=xyz"),
                Arguments.of("SECRET_KEY in Python settings", "django-insecure-7#x!q2@k",
                        "SECRET_KEY = 'django-insecure-7#x!q2@k'\nDEBUG = False",
                        "SECRET_KEY = '[REDACTED:secret]'\nDEBUG = False"),
                Arguments.of("token= in a log", "tk_93af0c2e6d1b",
                        "refresh failed for user 42 token=tk_93af0c2e6d1b status=401",
                        "refresh failed for user 42 token=[REDACTED:token] status=401"),
                Arguments.of("Go token := literal", "v2.local.Xk3P9wQz",
                        "token := \"v2.local.Xk3P9wQz\"\nreq.Header.Set(\"X-Token\", token)",
                        "token := \"[REDACTED:token]\"\nreq.Header.Set(\"X-Token\", token)"),
                Arguments.of("password= in a connection string", "hunter2",
                        "Server=db;Database=app;User Id=sa;Password=hunter2;Encrypt=true",
                        "Server=db;Database=app;User Id=sa;Password=[REDACTED:password];Encrypt=true"),
                Arguments.of("PGPASSWORD in a shell command", "changeme",
                        "$ PGPASSWORD=changeme psql -h localhost -U app",
                        "$ PGPASSWORD=[REDACTED:password] psql -h localhost -U app"),
                Arguments.of("\"password\" in JSON with an escaped quote", "pa\\\"ss w0rd",
                        "{\"user\": \"bob\", \"password\": \"pa\\\"ss w0rd\"}",
                        "{\"user\": \"bob\", \"password\": \"[REDACTED:password]\"}"),
                Arguments.of("passwd: in YAML", "s3cr3tpw",
                        "mysql:\n  user: root\n  passwd: s3cr3tpw # rotate monthly\n",
                        "mysql:\n  user: root\n  passwd: [REDACTED:password] # rotate monthly\n"),
                Arguments.of("client_secret= in a form body", "GOCSPX-1a2b3c4d5e6f",
                        "grant_type=client_credentials&client_id=app&client_secret=GOCSPX-1a2b3c4d5e6f",
                        "grant_type=client_credentials&client_id=app&client_secret=[REDACTED:client-secret]"),
                Arguments.of("client_secret: in YAML", "f00dfacecafe1234",
                        "oauth:\n  client_secret: f00dfacecafe1234\n",
                        "oauth:\n  client_secret: [REDACTED:client-secret]\n"),
                Arguments.of("\"client_secret\" in JSON", "cs_8d7e6f5a",
                        "{\"client_id\": \"web\", \"client_secret\": \"cs_8d7e6f5a\"}",
                        "{\"client_id\": \"web\", \"client_secret\": \"[REDACTED:client-secret]\"}"),
                Arguments.of("Ruby hash rocket", "r0cket-s3cret",
                        "config = { 'password' => 'r0cket-s3cret', 'host' => 'db' }",
                        "config = { 'password' => '[REDACTED:password]', 'host' => 'db' }"),
                Arguments.of("password: in a key-value log line", "hunter2",
                        "login ok user: bob password: hunter2 ip: 10.1.2.3",
                        "login ok user: bob password: [REDACTED:password] ip: 10.1.2.3"),
                Arguments.of("a plain-word password at the end of a YAML line", "changeme",
                        "db:\n  password: changeme\n  pool: 5\nadmin:\n  password: letmein # default\n",
                        "db:\n  password: [REDACTED:password]\n  pool: 5\nadmin:\n  password: [REDACTED:password] "
                                + "# default\n"),
                Arguments.of("secret next to non-Latin text", "hunter22",
                        "Пароль сброшен → password=hunter22 ✓ 密码已更新",
                        "Пароль сброшен → password=[REDACTED:password] ✓ 密码已更新"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plantedSecrets")
    void a_planted_secret_disappears_and_the_text_around_it_survives(String description, String secret, String text,
                                                                    String expected) {
        String scrubbed = scrubber.scrub(text);

        assertThat(scrubbed).isEqualTo(expected);
        assertThat(scrubbed).doesNotContain(secret);
    }

    @Test
    void a_multi_line_private_key_is_redacted_whole() {
        String body = Fakes.pemBody(5);
        String text = "cat > deploy_key <<'EOF'\n-----BEGIN RSA PRIVATE KEY-----\n" + body
                + "\n-----END RSA PRIVATE KEY-----\nEOF\nchmod 600 deploy_key";

        assertThat(scrubber.scrub(text))
                .isEqualTo("cat > deploy_key <<'EOF'\n[REDACTED:private-key]\nEOF\nchmod 600 deploy_key");
    }

    @Test
    void every_kind_of_pem_private_key_is_redacted() {
        for (String type : List.of("", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ")) {
            String text = "key:\n-----BEGIN " + type + "PRIVATE KEY-----\n" + Fakes.pemBody(2) + "\n-----END "
                    + type + "PRIVATE KEY-----\ndone";

            assertThat(scrubber.scrub(text)).as(type).isEqualTo("key:\n[REDACTED:private-key]\ndone");
        }
        String pgp = "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + Fakes.pemBody(2)
                + "\n-----END PGP PRIVATE KEY BLOCK-----";
        assertThat(scrubber.scrub(pgp)).isEqualTo("[REDACTED:private-key]");
    }

    @Test
    void a_private_key_inside_a_json_string_is_redacted_and_the_json_survives() {
        String body = Fakes.pemBody(3).replace("\n", "\\n");
        String text = "{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n" + body
                + "\\n-----END PRIVATE KEY-----\\n\", \"client_email\": \"bot@acme.iam.gserviceaccount.com\"}";

        assertThat(scrubber.scrub(text)).isEqualTo("{\"type\": \"service_account\", \"private_key\": "
                + "\"[REDACTED:private-key]\\n\", \"client_email\": \"bot@acme.iam.gserviceaccount.com\"}");
    }

    @Test
    void a_private_key_cut_off_before_its_end_line_is_redacted_through_its_body() {
        String text = "stdout (truncated):\n-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                + "DEK-Info: AES-128-CBC,5B6F\n\n" + Fakes.pemBody(2) + "\n\nThe deploy then failed.";

        assertThat(scrubber.scrub(text)).isEqualTo("stdout (truncated):\n[REDACTED:private-key]\n\nThe deploy then failed.");
    }

    @Test
    void a_truncated_json_escaped_key_is_redacted_up_to_the_closing_quote() {
        String text = "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0B\", \"id\": 1}";

        assertThat(scrubber.scrub(text)).isEqualTo("{\"private_key\": \"[REDACTED:private-key]\", \"id\": 1}");
    }

    @Test
    void a_key_without_end_line_followed_by_a_complete_one_redacts_both_and_keeps_the_prose_between() {
        String text = "first:\n-----BEGIN PRIVATE KEY-----\n" + Fakes.pemBody(1) + "\nthen the second:\n"
                + "-----BEGIN RSA PRIVATE KEY-----\n" + Fakes.pemBody(1) + "\n-----END RSA PRIVATE KEY-----\nend";

        assertThat(scrubber.scrub(text))
                .isEqualTo("first:\n[REDACTED:private-key]\nthen the second:\n[REDACTED:private-key]\nend");
    }

    @Test
    void several_secrets_in_one_text_are_all_redacted() {
        String text = "export AWS_ACCESS_KEY_ID=" + Fakes.awsAccessKeyId() + "\nexport GITHUB_TOKEN="
                + Fakes.githubToken("p") + "\npsql postgres://app:pw123456@db/x -c 'select 1'";

        assertThat(scrubber.scrub(text)).isEqualTo("export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id]\n"
                + "export GITHUB_TOKEN=[REDACTED:github-token]\n"
                + "psql postgres://app:[REDACTED:url-password]@db/x -c 'select 1'");
    }

    @Test
    void a_rule_fires_whatever_the_case_of_its_trigger_and_wherever_the_trigger_stands() {
        String token = "Zx81-Pq9_" + "v".repeat(24);

        assertThat(scrubber.scrub("AUTHORIZATION: BEARER " + token))
                .isEqualTo("AUTHORIZATION: BEARER [REDACTED:bearer-token]");
        assertThat(scrubber.scrub("Db_PassWord=hunter2hunter2")).isEqualTo("Db_PassWord=[REDACTED:password]");
        assertThat(scrubber.scrub(Fakes.jwt())).isEqualTo("[REDACTED:jwt]");
        assertThat(scrubber.scrub("the key ends the text: sk-")).isEqualTo("the key ends the text: sk-");
    }

    @Test
    void a_trigger_is_found_at_an_odd_or_even_position_and_at_the_very_end() {
        String key = Fakes.awsAccessKeyId();
        for (int before = 0; before < 4; before++) {
            String prefix = "ab c".substring(0, before);
            assertThat(scrubber.scrub(prefix + " " + key)).isEqualTo(prefix + " [REDACTED:aws-access-key-id]");
            assertThat(scrubber.scrub(prefix + "x=1 and a password: " + "s3cr3t!!"))
                    .isEqualTo(prefix + "x=1 and a password: [REDACTED:password]");
        }
    }

    @Test
    void a_candidate_that_is_not_a_secret_does_not_hide_the_one_after_it() {
        String text = "token = generateToken() then TOKEN=\"t0k3n-value-42\" and https://docs.example.com/x, "
                + "then HTTPS://admin:S3cret!pw@db.internal/app";

        assertThat(scrubber.scrub(text)).isEqualTo("token = generateToken() then TOKEN=\"[REDACTED:token]\" and "
                + "https://docs.example.com/x, then HTTPS://admin:[REDACTED:url-password]@db.internal/app");
    }

    @Test
    void prose_that_names_tokens_passwords_and_api_keys_is_left_as_it_is() {
        String text = "Tokens per call were fine; the password reset flow and the API key rotation are unrelated. "
                + "The client secret rotation runs nightly, see https://wiki.example.com/rotation for details.";

        assertThat(scrubber.scrub(text)).isEqualTo(text);
    }

    @Test
    void a_later_rule_still_runs_on_what_an_earlier_redaction_left() {
        String text = "AKIA" + "Q".repeat(16) + " then password=" + "s3cr3t-p4ss";

        assertThat(scrubber.scrub(text)).isEqualTo("[REDACTED:aws-access-key-id] then password=[REDACTED:password]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plantedSecrets")
    void scrubbing_twice_changes_nothing_more(String description, String secret, String text, String expected) {
        String once = scrubber.scrub(text);

        assertThat(scrubber.scrub(once)).isEqualTo(once);
    }

    @Test
    void null_and_empty_pass_through() {
        assertThat(scrubber.scrub(null)).isNull();
        assertThat(scrubber.scrub("")).isEmpty();
    }
}
