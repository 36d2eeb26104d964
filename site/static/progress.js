import{stars}from"./engine.js";export const KEY="lumina.progress.v1";export const GATES=Object.freeze({1:0,2:40,3:110,4:170,5:230});let memory=null;function storage(){try{return globalThis.localStorage||null;}catch{return null;}}
const clean=(e)=>{const s=e&&Number.isInteger(e.stars)?Math.min(3,Math.max(0,e.stars)):0;const best=e&&Number.isInteger(e.best)&&e.best>0?e.best:null;return s||best?{stars:s,best}:null;};export function loadProgress(){let raw=memory;try{const st=storage();if(st)raw=st.getItem(KEY);}catch{}
const out={levels:{}};try{const data=raw?JSON.parse(raw):null;const lv=data&&typeof data.levels==="object"&&!Array.isArray(data.levels)?data.levels:{};for(const id of Object.keys(lv)){const e=clean(lv[id]);if(e)out.levels[id]=e;}}catch{}
return out;}
export function recordResult(id,moves,optimal){const p=loadProgress(),old=p.levels[id]||{stars:0,best:null};const e={stars:Math.max(old.stars,stars(moves,optimal)),best:old.best?Math.min(old.best,moves):moves};p.levels[id]=e;memory=JSON.stringify(p);try{const st=storage();if(st)st.setItem(KEY,memory);}catch{}
return e;}
export const starsFor=(id)=>(loadProgress().levels[id]||{stars:0}).stars;export function totalStars(progress=loadProgress(),idPrefix=""){let t=0;for(const[id,e]of Object.entries(progress.levels||{}))if(id.startsWith(idPrefix))t+=e.stars||0;return t;}
export const isWorldUnlocked=(world,total)=>world in GATES&&total>=GATES[world];
