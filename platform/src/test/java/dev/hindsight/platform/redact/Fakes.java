package dev.hindsight.platform.redact;

/**
 * Format-valid but fake credentials, assembled at run time so the repository itself never holds a string that a
 * secret scanner (or a person) would mistake for a leaked key.
 */
final class Fakes {

    private static final String ALPHANUMERIC = "q7Rt2Kx9LmN4pZ8vW3sY6bJ1cH5dF0gA";

    private Fakes() {
    }

    /** {@code prefix} followed by {@code length} deterministic letters and digits. */
    static String token(String prefix, int length) {
        StringBuilder out = new StringBuilder(prefix);
        for (int i = 0; i < length; i++) {
            out.append(ALPHANUMERIC.charAt((i * 7 + prefix.length()) % ALPHANUMERIC.length()));
        }
        return out.toString();
    }

    static String awsAccessKeyId() {
        return "AK" + "IA" + upper(token("", 16));
    }

    static String awsTemporaryKeyId() {
        return "AS" + "IA" + upper(token("Y", 15));
    }

    static String awsSecretAccessKey() {
        return token("wJalr/K7MDENG+", 26);
    }

    static String googleApiKey() {
        return "AI" + "za" + token("Sy", 33);
    }

    static String githubToken(String prefix) {
        return "gh" + prefix + "_" + token("", 36);
    }

    static String githubFineGrained() {
        return "github" + "_pat_" + token("11ABCDEFG0", 12) + "_" + token("", 59);
    }

    static String slackToken() {
        return "xo" + "xb-" + "2049581736-4096123456789-" + token("", 24);
    }

    static String stripeKey(String prefix) {
        return prefix + "_li" + "ve_" + token("51H", 30);
    }

    static String openAiKey() {
        return "sk" + "-proj-" + token("", 48);
    }

    static String anthropicKey() {
        return "sk" + "-ant-api03-" + token("", 80) + "-" + token("AA", 6);
    }

    static String gitlabToken() {
        return "gl" + "pat-" + token("", 20);
    }

    static String slackWebhookPath() {
        return "T0" + token("", 8).toUpperCase(java.util.Locale.ROOT) + "/B0" + token("b", 8) + "/" + token("", 24);
    }

    static String huggingFaceToken() {
        return "h" + "f_" + token("", 34);
    }

    static String npmToken() {
        return "np" + "m_" + token("", 36);
    }

    static String googleOauthToken() {
        return "ya" + "29." + token("a0AfH6", 60);
    }

    static String azureStorageKey() {
        return token("Eby8vdM02x", 76) + "==";
    }

    static String azureSasSignature() {
        return token("k8Jd", 40) + "%3D";
    }

    static String jwt() {
        return "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
                + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
                + "." + token("Sfl", 40);
    }

    /** A PEM body: base64 lines of 64 characters and a shorter last one. */
    static String pemBody(int lines) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            body.append(token("MIIE" + i, 60)).append('\n');
        }
        return body.append(token("x+/", 20)).append("==").toString();
    }

    private static String upper(String value) {
        return value.toUpperCase(java.util.Locale.ROOT);
    }
}
