// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
export interface Messages {
  freshFromOurFields(): string
  contactHeading(): string
  nameLabel(): string
  emailLabel(): string
  messageLabel(): string
  namePlaceholder(): string
  emailPlaceholder(): string
  messagePlaceholder(): string
  leaveEmpty(): string
  submit(): string
  fallbackError(): string
  thisWeekHeading(): string
  tellMeWhenReady(): string
  yourName(): string
  yourEmail(): string
  tellMe(): string
  photosHeading(): string
  aboutTheFarm(): string
  ourStory(): string
  openingHours(): string
  closed(): string
  daysThatDiffer(): string
  openNowUntil(values: { time: string | number }): string
  opensToday(values: { time: string | number }): string
  opensTomorrow(values: { time: string | number }): string
  opensOn(values: { day: string | number; time: string | number }): string
  openOnDays(values: { days: string | number; hours: string | number }): string
  closedOnDays(values: { days: string | number }): string
  withNote(values: { note: string | number; what: string | number }): string
  whereToFindUs(): string
  openInMap(): string
  phone(): string
  languages(): string
  notFoundTitle(): string
  notFoundText(): string
  returnHome(): string
  navHome(): string
  navFarmSales(): string
  navMain(): string
  openMenu(): string
  closeMenu(): string
  mainMenu(): string
}

export interface FormMessages {
  submitting(): string
  fieldRequired(values: { field: "name" | "email" | "message" }): string
  fieldNotText(values: { field: "name" | "email" | "message" }): string
  fieldTooLong(values: { field: "name" | "email" | "message"; max: number }): string
  fieldControlCharacters(values: { field: "name" | "email" | "message" }): string
  invalidEmail(): string
  fallbackSuccess(): string
}

export interface ServerMessages {
  pageTitle(values: { farm: string | number }): string
  pageDescription(): string
  defaultWelcome(): string
  defaultIntro(): string
  defaultUpdatesTitle(values: { product: string | number }): string
  defaultUpdatesText(): string
  defaultOffersTitle(): string
  defaultOffersText(): string
  thankYou(): string
  couldNotSend(): string
  couldNotRead(): string
  tooManySubmissions(): string
  updatedOn(values: { date: string | number }): string
  available(): string
  fewLeft(): string
  comingSoon(): string
  soldOut(): string
  outOfSeason(): string
  comingSoonFrom(values: { date: string | number }): string
  priceFor(values: { price: string | number; unit: string | number }): string
  mailReplySubject(values: { farm: string | number }): string
  mailAcknowledgementSubject(values: { farm: string | number }): string
  mailConfirmationSubject(values: { farm: string | number }): string
  mailYouWrote(values: { when: string | number }): string
  mailFooter(): string
  mailAskForUpdates(values: { farm: string | number; link: string | number }): string
  acknowledgementText(values: { farm: string | number }): string
  askOnlyText(values: { farm: string | number }): string
  consentWords(values: { farm: string | number }): string
  updatesPageTitle(): string
  unsubscribePageTitle(): string
  linkExpiredTitle(): string
  linkExpiredText(): string
  linkInvalidTitle(): string
  linkInvalidText(): string
  confirmTitle(values: { farm: string | number }): string
  confirmQuestion(values: { email: string | number; farm: string | number }): string
  confirmButton(): string
  confirmNone(): string
  subscribedTitle(): string
  subscribedText(values: { email: string | number; farm: string | number }): string
  unsubscribeTitle(values: { farm: string | number }): string
  unsubscribeText(values: { email: string | number; farm: string | number }): string
  unsubscribeButton(): string
  resubscribedTitle(): string
  resubscribedText(values: { email: string | number; farm: string | number }): string
  unsubscribedTitle(): string
  unsubscribedText(values: { email: string | number; farm: string | number; refused: "yes" | "no" }): string
  undoQuestion(): string
  undoButton(): string
  testLinkTitle(): string
  testLinkText(): string
  updateSaidYesOn(values: { date: string | number; farm: string | number; site: string | number }): string
  updateSaidYes(values: { farm: string | number; site: string | number }): string
  updateAddedOn(values: { date: string | number; farm: string | number; site: string | number }): string
  updateAdded(values: { farm: string | number; site: string | number }): string
  updateUnsubscribeText(values: { link: string | number }): string
  updateUnsubscribeLink(): string
  updateForTest(values: { farm: string | number; site: string | number }): string
  tellMeOnUpdates(values: { form: "plural" | "single"; product: string | number }): string
  tellMeCheckMail(values: { form: "plural" | "single"; product: string | number }): string
  tellMeNotTaking(): string
  tellMeNoSuchProduct(): string
  tellMeCheckFields(): string
  tellMeHeading(values: { product: string | number }): string
  tellMeBack(): string
}
