// `npm run generate:sdk`: rewrites sdk/src/generated/openapi.ts from the service's OpenAPI document.
import { writeFile } from 'node:fs/promises';
import { GENERATED_PATH, generateOpenApiTypes } from './openapi-types.js';

const text = await generateOpenApiTypes();
await writeFile(GENERATED_PATH, text);
console.log(`wrote ${GENERATED_PATH} (${text.length} characters)`);
