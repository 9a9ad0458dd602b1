/** The ReasoningBank's search rule, shared by every service that answers a search over memories. */
package dev.hindsight.memorymodel.search;
