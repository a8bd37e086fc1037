"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { PERSON_ROLE_HELP, PERSON_ROLES, type TInvitation, type TMember, type TPersonRole } from "@/lib/contracts";
import {
  changeRole,
  createInvitation,
  createResetLink,
  memberKeys,
  membersQuery,
  removeMember,
  revokeInvitation,
} from "@/lib/queries/members";
import { useFormatInstant } from "@/components/layout/time-zone";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import { Panel } from "@/components/ui/panel";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./members.module.css";

const ROLE_NAMES: Record<TPersonRole, string> = { viewer: "Viewer", member: "Member", admin: "Admin" };

/**
 * /members: who belongs to the project with which role, and the invitation links. An admin
 * invites (the link is shown once, to hand over: no mail is sent), changes roles, removes members
 * and issues password reset links; everyone else sees the list. Every change is in the audit log.
 */
export function MembersPage({ project, canManage }: { project: string; canManage: boolean }) {
  const list = useQuery(membersQuery());
  return (
    <div className={styles.page}>
      <header>
        <h1>Members of {project}</h1>
        <p className="muted">
          A <strong>viewer</strong> {PERSON_ROLE_HELP.viewer}; a <strong>member</strong> {PERSON_ROLE_HELP.member}; an{" "}
          <strong>admin</strong> {PERSON_ROLE_HELP.admin}. Agents keep using <Link href="/keys">API keys</Link>. Every invitation, role
          change and removal is in the <Link href="/audit?target=member">audit log</Link>.
        </p>
        {canManage ? null : (
          <p className={styles.note} role="note">
            Only an admin changes members: you can see who is here.
          </p>
        )}
      </header>
      {canManage ? <NewInvitation /> : null}
      <Panel id="member-list" title="Members" meta={list.data ? `${list.data.members.length}` : undefined}>
        {list.isError ? (
          <p role="alert" className={styles.error}>
            The members could not be loaded: {list.error.message}
          </p>
        ) : !list.data ? (
          <p aria-busy="true">Loading members…</p>
        ) : (
          <MemberTable members={list.data.members} canManage={canManage} />
        )}
      </Panel>
      <Panel id="invitation-list" title="Invitations" meta="newest first">
        {list.data ? <InvitationTable invitations={list.data.invitations} canManage={canManage} /> : null}
      </Panel>
    </div>
  );
}

function NewInvitation() {
  const client = useQueryClient();
  const noteId = useId();
  const [note, setNote] = useState("");
  const [role, setRole] = useState<TPersonRole>("viewer");
  const hydrated = useHydrated() ? "true" : undefined;
  const create = useMutation({
    mutationFn: () => createInvitation({ role, note: note.trim() || undefined }),
    onSuccess: () => {
      setNote("");
      void client.invalidateQueries({ queryKey: memberKeys.all });
    },
  });
  return (
    <Panel id="invite" title="Invite someone" meta="the link works once, for 7 days">
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <fieldset className={styles.roles}>
          <legend>Role</legend>
          {PERSON_ROLES.map((option) => (
            <label key={option}>
              <input type="radio" name="role" value={option} checked={role === option} onChange={() => setRole(option)} />
              <strong>{ROLE_NAMES[option]}</strong> <span className="muted">— {PERSON_ROLE_HELP[option]}</span>
            </label>
          ))}
        </fieldset>
        <label htmlFor={noteId}>For whom (optional)</label>
        <input id={noteId} value={note} onChange={(e) => setNote(e.target.value)} maxLength={120} placeholder="e.g. Sam, reviewer" />
        <p>
          <button type="submit" className="button" disabled={create.isPending} data-hydrated={hydrated}>
            {create.isPending ? "Making the link…" : "Make an invitation link"}
          </button>
        </p>
        {create.isError ? (
          <p role="alert" className={styles.error}>
            No link was made: {create.error.message}
          </p>
        ) : null}
      </form>
      {create.data ? (
        <OneTimeSecret
          heading={`Invitation as ${create.data.invitation.role} made.`}
          hint="Send this link to the person yourself: it is not shown again."
          label="The invitation link"
          value={create.data.link}
        />
      ) : null}
    </Panel>
  );
}

function MemberTable({ members, canManage }: { members: TMember[]; canManage: boolean }) {
  const format = useFormatInstant();
  if (members.length === 0) return <p>Nobody has joined yet: invite someone.</p>;
  return (
    <ScrollRegion label="Members">
      <table className="data-table">
        <caption className="sr-only">Members by name</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Signs in with</th>
            <th scope="col">Joined</th>
            {canManage ? <th scope="col">Manage</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.personId}>
              <th scope="row">
                {member.name}
                {member.current ? <span className={styles.current}> · you</span> : null}
              </th>
              <td>{member.email}</td>
              <td>{canManage ? <RoleSelect member={member} /> : ROLE_NAMES[member.role]}</td>
              <td>{member.signIn.map((way) => (way === "password" ? "password" : "single sign-on")).join(", ") || "—"}</td>
              <td>{format(member.joinedAt)}</td>
              {canManage ? (
                <td className={styles.actions}>
                  <ResetLinkButton member={member} /> <RemoveButton member={member} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function RoleSelect({ member }: { member: TMember }) {
  const client = useQueryClient();
  const id = useId();
  const hydrated = useHydrated();
  const change = useMutation({
    mutationFn: (role: TPersonRole) => changeRole(member.personId, role),
    onSettled: () => client.invalidateQueries({ queryKey: memberKeys.all }),
  });
  return (
    <span className={styles.roleCell}>
      <label htmlFor={id} className="sr-only">
        Role of {member.name}
      </label>
      <select
        id={id}
        value={change.isPending && change.variables ? change.variables : member.role}
        disabled={!hydrated || change.isPending}
        onChange={(event) => change.mutate(event.target.value as TPersonRole)}
      >
        {PERSON_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_NAMES[role]}
          </option>
        ))}
      </select>
      {change.isError ? (
        <span role="alert" className={styles.error}>
          {" "}
          Not changed: {change.error.message}
        </span>
      ) : null}
    </span>
  );
}

function ResetLinkButton({ member }: { member: TMember }) {
  const issue = useMutation({ mutationFn: () => createResetLink(member.personId) });
  const hydrated = useHydrated() ? "true" : undefined;
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => issue.mutate()}
        disabled={issue.isPending}
        aria-label={`Password reset link for ${member.name}`}
        data-hydrated={hydrated}
      >
        Reset link
      </button>
      {issue.isError ? (
        <span role="alert" className={styles.error}>
          {" "}
          No link: {issue.error.message}
        </span>
      ) : null}
      {issue.data ? (
        <OneTimeSecret
          heading={`Reset link for ${member.name} made.`}
          hint="It works once, for 24 hours, and signs them out everywhere."
          label={`The password reset link for ${member.name}`}
          value={issue.data.link}
        />
      ) : null}
    </>
  );
}

/** Remove, asked twice: the person loses access to the project at once. */
function RemoveButton({ member }: { member: TMember }) {
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => removeMember(member.personId),
    onSettled: () => client.invalidateQueries({ queryKey: memberKeys.all }),
  });
  if (!asking) {
    return (
      <button type="button" className="button button-quiet" onClick={() => setAsking(true)} aria-label={`Remove ${member.name}`}>
        Remove
      </button>
    );
  }
  return (
    <span className={styles.confirm}>
      <span>Remove {member.name} from the project?</span>{" "}
      <button type="button" className="button" onClick={() => remove.mutate()} disabled={remove.isPending}>
        Yes, remove
      </button>{" "}
      <button type="button" className="button button-quiet" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {remove.isError ? (
        <span role="alert" className={styles.error}>
          {" "}
          Not removed: {remove.error.message}
        </span>
      ) : null}
    </span>
  );
}

const STATUS_NAMES: Record<TInvitation["status"], string> = {
  pending: "pending",
  accepted: "accepted",
  revoked: "revoked",
  expired: "expired",
};

function InvitationTable({ invitations, canManage }: { invitations: TInvitation[]; canManage: boolean }) {
  const client = useQueryClient();
  const format = useFormatInstant();
  const revoke = useMutation({
    mutationFn: (id: string) => revokeInvitation(id),
    onSettled: () => client.invalidateQueries({ queryKey: memberKeys.all }),
  });
  if (invitations.length === 0) return <p>No invitations yet.</p>;
  return (
    <ScrollRegion label="Invitations">
      <table className="data-table">
        <caption className="sr-only">Invitations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">For</th>
            <th scope="col">Role</th>
            <th scope="col">Made by</th>
            <th scope="col">Made</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <th scope="row">{invitation.note ?? <span className="muted">(no note)</span>}</th>
              <td>{ROLE_NAMES[invitation.role]}</td>
              <td>{invitation.createdBy}</td>
              <td>{format(invitation.createdAt)}</td>
              <td>
                {invitation.status === "accepted" && invitation.acceptedBy
                  ? `accepted by ${invitation.acceptedBy}`
                  : invitation.status === "pending"
                    ? `pending until ${format(invitation.expiresAt)}`
                    : STATUS_NAMES[invitation.status]}
                {canManage && invitation.status === "pending" ? (
                  <>
                    {" "}
                    <button
                      type="button"
                      className="button button-quiet"
                      onClick={() => revoke.mutate(invitation.id)}
                      disabled={revoke.isPending}
                      aria-label={`Revoke the invitation for ${invitation.note ?? invitation.role}`}
                    >
                      Revoke
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
