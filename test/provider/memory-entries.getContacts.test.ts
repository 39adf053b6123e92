/**
 * getContacts() as a program or an Automation API host calls it, one account after another, each
 * with a key of its own (test/provider/memory-entries.ts): the key from the environment, then from
 * the stack config. The old per-key cache of redaction patterns grew 137 KB an account here.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, test } from "vitest";
import { getContacts } from "../../provider/contacts/getContacts";
import { BOUND_MB, FIRST, growthOver, LAST, TIMEOUT, useAccounts } from "./memory-entries";

const accounts = useAccounts();

describe(`getContacts for ${LAST} accounts keeps the heap within ${BOUND_MB} MB of where it was after ${FIRST}`, () => {
  test("getContacts() with the key from the environment", TIMEOUT, async () => {
    const saved = { ...process.env };
    try {
      const growth = await growthOver(accounts.sandbox(), async (_n, key) => {
        process.env.DOMAINAPI_API_KEY = key;
        process.env.DOMAINAPI_BASE_URL = accounts.baseUrl();
        const result = await getContacts({ perPage: 2, limit: 2 });
        expect(result.contacts).toHaveLength(2);
      });
      expect(growth).toBeLessThan(BOUND_MB);
    } finally {
      process.env = saved;
    }
  });

  test("getContacts() with the key from the stack config", TIMEOUT, async () => {
    delete process.env.DOMAINAPI_API_KEY;
    delete process.env.DOMAINAPI_BASE_URL;
    try {
      const growth = await growthOver(accounts.sandbox(), async (_n, key) => {
        pulumi.runtime.setConfig("domainapi:apiKey", key);
        pulumi.runtime.setConfig("domainapi:baseUrl", accounts.baseUrl());
        const result = await getContacts({ perPage: 2, limit: 2 });
        expect(result.contacts).toHaveLength(2);
      });
      expect(growth).toBeLessThan(BOUND_MB);
    } finally {
      pulumi.runtime.setAllConfig({});
    }
  });
});
