package dev.hindsight.deploy.k8s;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service's Kafka wiring as its pod sees it: {@code application.properties}, overridden by the environment the
 * Deployment gives it (MicroProfile Config's rule: {@code a.b-c} is read from {@code A_B_C}).
 */
final class ServiceConfig {

    /** An incoming channel: what it reads, in which group, and where its dead letters go (null: none). */
    record Channel(String name, List<String> topics, String group, String deadLetterTopic) {
    }

    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^}:]+)(?::([^}]*))?}");

    private final String service;
    private final Properties properties = new Properties();
    private final Map<String, String> environment;

    ServiceConfig(String service, Path applicationProperties, Map<String, String> environment) {
        this.service = service;
        this.environment = environment;
        try (Reader reader = Files.newBufferedReader(applicationProperties)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + applicationProperties, e);
        }
    }

    String service() {
        return service;
    }

    /** MicroProfile Config's environment name of a property. */
    static String envName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT);
    }

    Optional<String> get(String key) {
        String value = environment.getOrDefault(envName(key), properties.getProperty(key));
        return Optional.ofNullable(value).map(this::resolve);
    }

    private String resolve(String value) {
        Matcher m = EXPRESSION.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = get(m.group(1)).orElse(m.group(2) == null ? m.group() : m.group(2));
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Channels with a connector, i.e. the ones SmallRye starts. */
    List<Channel> incoming() {
        List<Channel> channels = new ArrayList<>();
        for (String name : channelNames("mp.messaging.incoming.")) {
            String prefix = "mp.messaging.incoming." + name + ".";
            List<String> topics = get(prefix + "topics")
                    .map(t -> Arrays.stream(t.split(",")).map(String::trim).toList())
                    .orElseGet(() -> List.of(get(prefix + "topic").orElse(name)));
            String group = get(prefix + "group.id").orElse(get("quarkus.application.name").orElse(service));
            String dlq = "dead-letter-queue".equals(get(prefix + "failure-strategy").orElse("fail"))
                    ? get(prefix + "dead-letter-queue.topic").orElse("dead-letter-topic-" + topics.get(0))
                    : null;
            channels.add(new Channel(name, topics, group, dlq));
        }
        return channels;
    }

    /** Names of the outgoing channels. */
    List<String> outgoingChannels() {
        return channelNames("mp.messaging.outgoing.");
    }

    /** Topics of the outgoing channels. */
    List<String> outgoingTopics() {
        return channelNames("mp.messaging.outgoing.").stream()
                .map(name -> get("mp.messaging.outgoing." + name + ".topic").orElse(name)).distinct().toList();
    }

    private List<String> channelNames(String prefix) {
        TreeSet<String> names = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith(prefix) && key.endsWith(".connector")) {
                names.add(key.substring(prefix.length(), key.length() - ".connector".length()));
            }
        }
        return List.copyOf(names);
    }
}
