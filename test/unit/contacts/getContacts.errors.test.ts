/**
 * The error a program catches when a contacts listing cannot be completed truthfully
 * (provider/contacts/getContacts.ts): its stable code, its kind, and the words it ends with.
 */
import { expect, test } from "vitest";
import { ContactsListingError } from "../../../provider/contacts/getContacts";
import { DomainApiBaseError } from "../../../provider/errors";

test("contacts that changed on one listing, and on each of several", () => {
  const change = { kind: "changed" as const, message: "page 3 says total_results 138, page 1 said 137" };
  const once = new ContactsListingError(change, 1);
  expect(once.message).toBe(
    "getContacts: the contacts changed while they were listed, once (last: page 3 says total_results 138, " +
      "page 1 said 137); try again, or narrow the filters. Nothing is returned rather than a partial or duplicated list.",
  );
  expect(once.code).toBe("DOMAINAPI_CONTACTS_CHANGED");
  expect(once.kind).toBe("changed");
  expect(once.passes).toBe(1);
  const thrice = new ContactsListingError(change, 3);
  expect(thrice.message).toContain("changed while they were listed, on each of 3 listings (last: page 3");
  expect(thrice.passes).toBe(3);
});

test("answers that contradict each other", () => {
  const err = new ContactsListingError(
    { kind: "inconsistent", message: "the answer to page 2 says it is page 1 (current_page/page)" },
    1,
  );
  expect(err.message).toBe(
    "getContacts: the API's pagination disagrees: the answer to page 2 says it is page 1 (current_page/page). " +
      "Nothing is returned rather than a partial or duplicated list.",
  );
  expect(err.code).toBe("DOMAINAPI_CONTACTS_INCONSISTENT");
  expect(err.kind).toBe("inconsistent");
  expect(err).toBeInstanceOf(DomainApiBaseError);
  expect(err).toBeInstanceOf(ContactsListingError);
});

test("is known by its brand across copies of the package, and only by its own", () => {
  const copy = Object.defineProperty(new Error("m"), Symbol.for("pulumi-domainapi.ContactsListingError"), {
    value: true,
  });
  expect(copy).toBeInstanceOf(ContactsListingError);
  const other = Object.defineProperty(new Error("m"), Symbol.for("pulumi-domainapi.PartialFailure"), {
    value: true,
  });
  expect(other).not.toBeInstanceOf(ContactsListingError);
});
