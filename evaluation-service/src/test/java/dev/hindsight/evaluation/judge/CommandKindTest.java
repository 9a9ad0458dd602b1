package dev.hindsight.evaluation.judge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CommandKindTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiterString = " -> ", value = {
            // read-only diagnostics
            "grep -rn split src -> INSPECT",
            "rg TODO -> INSPECT",
            "cat export/csv.py -> INSPECT",
            "tail -n 100 logs/app.log -> INSPECT",
            "git log -p export/csv.py -> INSPECT",
            "git diff HEAD~1 -> INSPECT",
            "git blame -L 40,45 export/csv.py -> INSPECT",
            "kubectl logs pod/api-7 -> INSPECT",
            "docker logs api -> INSPECT",
            "journalctl -u api --since today -> INSPECT",
            "sed -n 30,50p export/csv.py -> INSPECT",
            "cat app.log | grep ERROR | wc -l -> INSPECT",
            // runs: tests, builds, the program
            "pytest tests/test_csv_export.py -k last_row -> RUN",
            "python -m pytest -> RUN",
            "mvn -q test -> RUN",
            "./gradlew build -> RUN",
            "npm test -> RUN",
            "go test ./... -> RUN",
            "cargo test -> RUN",
            "make -> RUN",
            "python repro.py -> RUN",
            "./app --port 8080 -> RUN",
            "run_tests.sh -> RUN",
            "cd service && pytest -> RUN",
            "CI=true npm test -> RUN",
            "sudo make install -> RUN",
            "docker compose up -> RUN",
            "curl -s localhost:8080/health -> RUN",
            // housekeeping
            "pip install -r requirements.txt -> OTHER",
            "npm install -> OTHER",
            "go mod tidy -> OTHER",
            "cd src -> OTHER",
            "git commit -am fix -> OTHER",
            "git checkout -b fix -> OTHER",
            "sed -i s/a/b/ file.py -> OTHER",
            "mkdir -p out -> OTHER"})
    void classifiesCommandsByWhatTheyDoForTheMethod(String command, CommandKind expected) {
        assertThat(CommandKind.of(command)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void blankCommandsAreHousekeeping(String command) {
        assertThat(CommandKind.of(command)).isEqualTo(CommandKind.OTHER);
        assertThat(CommandKind.of(null)).isEqualTo(CommandKind.OTHER);
    }
}
