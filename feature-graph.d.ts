/** Types of feature-graph.js (plain JavaScript, so eslint.config.js can import it). */
export declare const featureDependencies: Record<string, readonly string[]>;
