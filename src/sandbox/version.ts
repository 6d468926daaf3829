/** The version the sandbox answers with: the newest the field notes have seen. */
export const SANDBOX_API_VERSION = '1.0.26';
