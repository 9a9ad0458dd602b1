package dev.hindsight.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium driven through its ChromeDriver: Debian's {@code chromium} and {@code chromium-driver}
 * (deploy/local/chromium.sh installs them; {@code HINDSIGHT_CHROMIUM} and {@code HINDSIGHT_CHROMEDRIVER} name
 * others). Both paths are given to Selenium, so it never looks for or downloads a driver.
 */
final class Browser {

    private Browser() {
    }

    static WebDriver start() {
        Path browser = Path.of(env("HINDSIGHT_CHROMIUM", "/usr/bin/chromium"));
        Path driver = Path.of(env("HINDSIGHT_CHROMEDRIVER", "/usr/bin/chromedriver"));
        if (!Files.isExecutable(browser) || !Files.isExecutable(driver)) {
            throw new IllegalStateException("The browser tests need Chromium at " + browser + " and ChromeDriver at "
                    + driver + ": run deploy/local/chromium.sh ensure (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1500", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
                .usingAnyFreePort().build();
        ChromeDriver chrome = new ChromeDriver(service, options);
        chrome.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return chrome;
    }

    /** Saves what the browser shows as {@code name}.png in the screenshots directory; answers the file. */
    static Path screenshot(WebDriver driver, String name) {
        try {
            Path dir = Path.of(System.getProperty("hindsight.test.screenshots", "target/screenshots"));
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".png");
            Path taken = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(taken, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot save screenshot " + name, e);
        }
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? otherwise : value;
    }
}
