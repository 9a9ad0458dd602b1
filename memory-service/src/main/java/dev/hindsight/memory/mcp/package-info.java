/**
 * The ReasoningBank over MCP: its tools and their authentication.
 */
@FeatureApi({})
package dev.hindsight.memory.mcp;

import dev.hindsight.platform.FeatureApi;
