// Public surface of @evgen/runtime: what generated code and integrators import.
export {};
