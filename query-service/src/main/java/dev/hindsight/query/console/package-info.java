/**
 * The console's shell: sign-in and its cookie, who is reading, the layout every page shares, the error page and the
 * console's URLs. Each feature's own pages live in the feature's package.
 */
@FeatureApi({ConsoleAccess.class, ConsolePaths.class, Layout.class, Text.class, Viewer.class})
package dev.hindsight.query.console;

import dev.hindsight.platform.FeatureApi;
